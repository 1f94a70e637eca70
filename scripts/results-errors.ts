import { ResultsError } from "../results/results-error.ts";
import { isSqliteError, storageError } from "../results/storage-failure.ts";
import { CliError, EXIT } from "./exit-codes.ts";

/**
 * The one map from the results room's failures to the CLI's: a ResultsError, and a storage
 * failure (a read-only, locked, damaged or missing database, a full disk: results/
 * storage-failure.ts), end the command with a message and exit 2, never a stack trace.
 * `path` names the file in a storage failure's message (SQLite's own error does not).
 */
export function cliErrorOf(error: unknown, path?: string): CliError | undefined {
  if (error instanceof CliError) return error;
  if (error instanceof ResultsError) return new CliError(error.message, EXIT.usage);
  const storage = storageError(error, path ?? "a file gatecheck writes");
  if (storage) return new CliError(storage.message, EXIT.usage);
  if (isSqliteError(error)) {
    return new CliError(
      `${path ?? "the results database"}: SQLite failed (${error.code}: ${error.message})`,
      EXIT.usage,
    );
  }
  return undefined;
}

/** Runs a command's work, its results-room and storage failures ended as cliErrorOf says. */
export async function withResultsErrors<T>(
  action: () => T | Promise<T>,
  path?: string,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw cliErrorOf(error, path) ?? error;
  }
}
