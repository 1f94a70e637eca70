import type { Command } from "commander";
import { DEFAULT_DB_PATH } from "../../results/default-db-path.ts";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerReport: RegisterCommand = (program: Command) => {
  program
    .command("report")
    .description(
      "Render a run (default: the latest) as a Markdown matrix, a JSON summary or JUnit XML",
    )
    .argument("[run]", "run id (default: the latest run)")
    .option("--db <path>", "results database", DEFAULT_DB_PATH)
    .option("--md <file>", "write the Markdown matrix to FILE")
    .option(
      "--json [file]",
      "JSON summary: counts per gateway column and verdict (stdout without FILE)",
    )
    .option("--junit <file>", "write JUnit XML: one test case per cell, silent defects fail")
    .option("--html <file>", "write the HTML report: one self-contained page (matrix, bytes, diff)")
    .option(
      "--accept <file>",
      "accepted losses for --junit: JSON list of {gateway, field, verdict, reason}",
    )
    .action(lazyAction(async () => (await import("../actions/report.ts")).reportAction));
};
