import { ResultsError } from "../results/results-error.ts";
import { CliError, EXIT } from "./exit-codes.ts";

/** Results-room errors end the command with their message and exit 2 (nothing was changed). */
export async function withResultsErrors<T>(action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ResultsError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}
