import type { Command } from "commander";
import { mergeDatabases } from "../../results/merge-databases.ts";
import { withResultsErrors } from "../results-errors.ts";
import type { RegisterCommand } from "./index.ts";

export const registerMerge: RegisterCommand = (program: Command) => {
  program
    .command("merge")
    .description(
      "Merge results databases (shards of one sweep, or several machines' runs) into OUT; conflicting duplicate cells stop the merge and leave OUT unchanged",
    )
    .argument("<out>", "output database (created when missing)")
    .argument("<inputs...>", "input databases")
    .action((out: string, inputs: string[]) =>
      withResultsErrors(() => {
        const report = mergeDatabases(out, inputs);
        process.stdout.write(
          `merged ${report.inputs} database(s) into ${out}: runs ${report.runs.join(", ") || "(none)"}; ${report.cellsAdded} cells added, ${report.cellsAlreadyPresent} already present, ${report.attemptsAdded} attempts added\n`,
        );
      }),
    );
};
