/** The one error class of the results room. */
export type ResultsErrorCode =
  | "db-open"
  | "schema-version"
  | "not-found"
  | "bad-record"
  | "not-read-only"
  | "sql"
  | "merge-conflict"
  | "bad-accept-file"
  | "writer-closed"
  | "bad-run-id"
  | "outside-root"
  | "storage";

export class ResultsError extends Error {
  constructor(
    readonly code: ResultsErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ResultsError";
  }
}
