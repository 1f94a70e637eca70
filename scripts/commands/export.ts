/**
 * `gatecheck export`: one stored attempt as an exchange file that `gatecheck check` reads, so
 * the bytes behind any verdict can be shared, read by hand or kept as a test fixture.
 * Exit 0 when written, 2 when the database, cell or attempt cannot be found.
 */
import type { Command } from "commander";
import { writeOutputFile } from "../../results/run-outputs.ts";
import { DEFAULT_DB_PATH } from "../../results/store.ts";
import { type ExportSelection, exportExchange } from "../../sweep/export-exchange.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import type { RegisterCommand } from "./index.ts";
import { withResultsErrors } from "./query.ts";

interface ExportOptions {
  db: string;
  run?: string;
  column: string;
  route: string;
  probe: string;
  mode: string;
  phase: string;
  attempt: string;
  out?: string;
}

function selectionOf(options: ExportOptions): ExportSelection {
  const { mode, phase } = options;
  if (mode !== "stream" && mode !== "non-stream") {
    throw new CliError(`--mode: expected stream or non-stream, got ${mode}`, EXIT.usage);
  }
  if (!["main", "repeat", "control"].includes(phase)) {
    throw new CliError(`--phase: expected main, repeat or control, got ${phase}`, EXIT.usage);
  }
  const attempt = Number(options.attempt);
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new CliError(
      `--attempt: expected a whole number ≥ 1, got ${options.attempt}`,
      EXIT.usage,
    );
  }
  return {
    column: options.column,
    route: options.route,
    probe: options.probe,
    mode,
    phase,
    attempt,
    ...(options.run ? { run: options.run } : {}),
  };
}

export const registerExport: RegisterCommand = (program: Command) => {
  program
    .command("export")
    .description("write one stored attempt as an exchange file for `gatecheck check`")
    .requiredOption("--column <label>", "gateway column, e.g. portkey@1.15.2")
    .requiredOption("--route <id>", "route id, e.g. anthropic-messages->openai-chat")
    .requiredOption("--probe <id>", "probe id, e.g. am-stop-sequences")
    .requiredOption("--mode <mode>", "stream or non-stream")
    .option("--run <id>", "run id (default: the latest run)")
    .option("--phase <phase>", "main, repeat or control", "main")
    .option("--attempt <n>", "attempt number within the phase", "1")
    .option("--db <path>", "results database", DEFAULT_DB_PATH)
    .option("--out <file>", "write the exchange here instead of stdout")
    .action((options: ExportOptions) =>
      withResultsErrors(() => {
        const text = `${JSON.stringify(exportExchange(options.db, selectionOf(options)), null, 2)}\n`;
        if (options.out) writeOutputFile(options.out, text);
        else process.stdout.write(text);
      }),
    );
};
