/**
 * `gatecheck export`: one stored attempt as an exchange file that `gatecheck check` reads, so
 * the bytes behind any verdict can be shared, read by hand or kept as a test fixture.
 * Exit 0 when written, 2 when the database, cell or attempt cannot be found.
 */
import { writeOutputFile } from "../../results/run-outputs.ts";
import {
  type AttemptIdSelection,
  type ExportSelection,
  exportExchange,
} from "../../sweep/export-exchange.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { requireWritableFile } from "../paths.ts";
import { withResultsErrors } from "../results-errors.ts";
import { optionalRunIdArg } from "../run-id-arg.ts";

export interface ExportOptions {
  db: string;
  run?: string;
  attemptId?: string;
  column?: string;
  route?: string;
  probe?: string;
  mode?: string;
  phase?: string;
  attempt?: string;
  out?: string;
}

const CELL_OPTIONS = ["column", "route", "probe", "mode"] as const;
/** What only a cell's selection takes: `--attempt-id` already names run, phase and number. */
const CELL_ONLY = [...CELL_OPTIONS, "run", "phase", "attempt"] as const;

/** `--attempt-id N` alone, or the cell's four options (with `--phase`/`--attempt`). */
function selectionOf(options: ExportOptions): ExportSelection | AttemptIdSelection {
  if (options.attemptId !== undefined) {
    const given = CELL_ONLY.filter((o) => options[o] !== undefined);
    if (given.length > 0) {
      throw new CliError(
        `--attempt-id names one attempt of one run: leave out ${given.map((o) => `--${o}`).join(", ")}`,
        EXIT.usage,
      );
    }
    const attemptId = Number(options.attemptId);
    if (!Number.isInteger(attemptId) || attemptId < 1) {
      throw new CliError(
        `--attempt-id: expected a whole number ≥ 1, got ${options.attemptId}`,
        EXIT.usage,
      );
    }
    return { attemptId };
  }
  const missing = CELL_OPTIONS.filter((o) => options[o] === undefined);
  if (missing.length > 0) {
    throw new CliError(
      `export needs --attempt-id, or --column, --route, --probe and --mode: missing ${missing.map((o) => `--${o}`).join(", ")}`,
      EXIT.usage,
    );
  }
  return cellSelection(options as CellOptions);
}

type CellOptions = ExportOptions & Record<(typeof CELL_OPTIONS)[number], string>;

function cellSelection(options: CellOptions): ExportSelection {
  const { mode } = options;
  const phase = options.phase ?? "main";
  if (mode !== "stream" && mode !== "non-stream") {
    throw new CliError(`--mode: expected stream or non-stream, got ${mode}`, EXIT.usage);
  }
  if (!["main", "repeat", "control"].includes(phase)) {
    throw new CliError(`--phase: expected main, repeat or control, got ${phase}`, EXIT.usage);
  }
  const attempt = Number(options.attempt ?? "1");
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
  optionalRunIdArg(options.run, "--run");
  if (options.out !== undefined) requireWritableFile(options.out, "--out");
  return withResultsErrors(() => {
    const text = `${JSON.stringify(exportExchange(options.db, selectionOf(options)), null, 2)}\n`;
    if (options.out) writeOutputFile(options.out, text);
    else process.stdout.write(text);
  }, options.db);
}
