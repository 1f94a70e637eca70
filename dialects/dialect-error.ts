/** The one error class of the dialects room: thrown where input cannot be read or rendered at all. */

export type DialectErrorCode =
  /** The body is not a JSON object (null, array, string, number): no reader can keep it. */
  | "not-an-object"
  /** The dialect name is not one of DIALECTS. */
  | "unknown-dialect"
  /** A stream plan that does not validate (a user's staged JSON). */
  | "invalid-plan"
  /** A stream plan whose explicit text chunks do not join to the reply's text. */
  | "chunks-mismatch";

export class DialectError extends Error {
  constructor(
    readonly code: DialectErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DialectError";
  }
}
