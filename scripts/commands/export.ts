/**
 * `gatecheck export`: one stored attempt as an exchange file that `gatecheck check` reads, so
 * the bytes behind any verdict can be shared, read by hand or kept as a test fixture.
 * Exit 0 when written, 2 when the database, cell or attempt cannot be found.
 */
import type { Command } from "commander";
import { DEFAULT_DB_PATH } from "../../results/default-db-path.ts";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerExport: RegisterCommand = (program: Command) => {
  program
    .command("export")
    .description("write one stored attempt as an exchange file for `gatecheck check`")
    .option(
      "--attempt-id <id>",
      "the attempt's attempt_id (the matrix's #id, the findings and attempts views' column), instead of the four below",
    )
    .option("--column <label>", "gateway column, e.g. portkey@1.15.2")
    .option("--route <id>", "route id, e.g. anthropic-messages->openai-chat")
    .option("--probe <id>", "probe id, e.g. am-stop-sequences")
    .option("--mode <mode>", "stream or non-stream")
    .option("--run <id>", "run id (default: the latest run)")
    .option("--phase <phase>", "main, repeat or control (default: main)")
    .option("--attempt <n>", "attempt number within the phase (default: 1)")
    .option("--db <path>", "results database", DEFAULT_DB_PATH)
    .option("--out <file>", "write the exchange here instead of stdout")
    .action(lazyAction(async () => (await import("../actions/export.ts")).exportAction));
};
