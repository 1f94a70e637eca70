/** The one error class of the dialects room: thrown only where input cannot be read at all. */

export type DialectErrorCode =
  /** The body is not a JSON object (null, array, string, number): no reader can keep it. */
  | "not-an-object"
  /** The dialect name is not one of DIALECTS. */
  | "unknown-dialect";

export class DialectError extends Error {
  constructor(
    readonly code: DialectErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DialectError";
  }
}
