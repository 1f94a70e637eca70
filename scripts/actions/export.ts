/**
 * `gatecheck export`: one stored attempt as an exchange file that `gatecheck check` reads, so
 * the bytes behind any verdict can be shared, read by hand or kept as a test fixture.
 * Exit 0 when written, 2 when the database, cell or attempt cannot be found.
 */
import { writeOutputFile } from "../../results/run-outputs.ts";
import { type ExportSelection, exportExchange } from "../../sweep/export-exchange.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { requireWritableFile } from "../paths.ts";
import { withResultsErrors } from "../results-errors.ts";

export interface ExportOptions {
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

export function exportAction(options: ExportOptions): Promise<void> {
  if (options.out !== undefined) requireWritableFile(options.out, "--out");
  return withResultsErrors(() => {
    const text = `${JSON.stringify(exportExchange(options.db, selectionOf(options)), null, 2)}\n`;
    if (options.out) writeOutputFile(options.out, text);
    else process.stdout.write(text);
  });
}
