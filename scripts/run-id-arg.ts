import { ResultsError } from "../results/results-error.ts";
import { requireRunId } from "../results/run-id.ts";
import { CliError, EXIT } from "./exit-codes.ts";

/** A run id given on the command line (`--run-id`, `--resume`, `report RUN`): exit 2 unless it is one. */
export function runIdArg(text: string, where: string): string {
  try {
    return requireRunId(text, where);
  } catch (error) {
    if (error instanceof ResultsError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}

/** The same for an optional one. */
export function optionalRunIdArg(text: string | undefined, where: string): string | undefined {
  return text === undefined ? undefined : runIdArg(text, where);
}
