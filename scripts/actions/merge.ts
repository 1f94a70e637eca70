import { mergeDatabases } from "../../results/merge-databases.ts";
import { requireWritableFile } from "../paths.ts";
import { withResultsErrors } from "../results-errors.ts";

export function mergeAction(out: string, inputs: string[]): Promise<void> {
  requireWritableFile(out, "OUT");
  return withResultsErrors(() => {
    const report = mergeDatabases(out, inputs);
    process.stdout.write(
      `merged ${report.inputs} database(s) into ${out}: runs ${report.runs.join(", ") || "(none)"}; ${report.cellsAdded} cells added, ${report.cellsAlreadyPresent} already present, ${report.attemptsAdded} attempts added, ${report.loopsAdded} agent loops added\n`,
    );
  }, out);
}
