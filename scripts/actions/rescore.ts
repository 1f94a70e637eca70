import { ResultsError } from "../../results/results-error.ts";
import { openStore } from "../../results/store.ts";
import { rescoreRunParallel } from "../../sweep/rescore.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { optionalRunIdArg } from "../run-id-arg.ts";

export interface RescoreFlags {
  db: string;
  json?: boolean;
  workers?: string;
}

function workerCount(flag: string | undefined): number | undefined {
  if (flag === undefined) return undefined;
  const n = Number(flag);
  if (!Number.isInteger(n) || n < 0) {
    throw new CliError(`--workers: expected a whole number ≥ 0, got ${flag}`, EXIT.usage);
  }
  return n;
}

export async function rescoreAction(run: string | undefined, flags: RescoreFlags): Promise<void> {
  const workers = workerCount(flags.workers);
  optionalRunIdArg(run, "rescore RUN");
  let store: ReturnType<typeof openStore>;
  try {
    store = openStore(flags.db, { create: false });
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.usage);
  }
  try {
    const from = run ?? store.latestRun()?.id;
    if (!from) throw new CliError(`no run in ${flags.db} to rescore`, EXIT.usage);
    const result = await rescoreRunParallel(store, from, {
      ...(workers !== undefined ? { workers } : {}),
    });
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const rate = Math.round((result.attempts * 1000) / Math.max(1, result.elapsedMs));
      process.stdout.write(
        `rescored ${result.fromRun} as ${result.runId}: ${result.attempts} attempts, ${result.cells} cells, ${result.changed} changed verdict (${rate} attempts/s)\n` +
          `compare with: npx gatecheck diff ${result.fromRun} ${result.runId}\n`,
      );
    }
  } catch (error) {
    if (error instanceof ResultsError) throw new CliError(error.message, EXIT.usage);
    throw error;
  } finally {
    store.close();
  }
}
