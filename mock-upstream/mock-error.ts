/** The one error class of the mock room. */
export type MockErrorCode =
  /** A staged reply spec failed validation (the message names the path inside it). */
  | "invalid-spec"
  /** Staging it would pass the listener's bound on staged bytes (`stagedBytesLimit`). */
  | "staged-limit"
  /** `persona` names no known persona. */
  | "unknown-persona"
  /** The listener could not bind (port in use, bad host). */
  | "listen-failed";

export class MockError extends Error {
  constructor(
    readonly code: MockErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "MockError";
  }
}
