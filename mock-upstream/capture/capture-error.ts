/** Errors of capture and replay, each naming the file (and line) it is about. */
export type CaptureErrorCode =
  | "unreadable-file"
  | "invalid-json"
  | "invalid-exchange"
  | "empty-capture"
  | "invalid-upstream"
  | "write-failed";

export class CaptureError extends Error {
  constructor(
    readonly code: CaptureErrorCode,
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = "CaptureError";
  }
}
