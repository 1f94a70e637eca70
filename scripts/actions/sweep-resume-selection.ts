/**
 * `--resume RUN` sweeps what the run swept: its selection (gateways, probes, modes, repeats,
 * ...) is read from the run's stored arguments (`runs.args`), never from the flags' defaults,
 * which would mix another sweep into the run. A selection flag given again must say what the
 * run stored; one that contradicts it is exit 2 naming the flag and the stored value. The
 * budget (`--minutes`), `--concurrency` and the output flags are this command's own.
 */
import type { Command } from "commander";
import { openStoreReadonly } from "../../results/store.ts";
import { CliError } from "../exit-codes.ts";

/** What decides which cells a run holds and how they are judged (the attempt deadline too). */
export const SELECTION_FLAGS = [
  "gateways",
  "attach",
  "attachMockPort",
  "probes",
  "probesDir",
  "dialects",
  "modes",
  "repeats",
  "timeoutMs",
  "shard",
] as const;

type Selection = Partial<Record<(typeof SELECTION_FLAGS)[number], string>>;

function shellText(value: string | undefined): string {
  return value === undefined ? "not given (the default)" : JSON.stringify(value);
}

/** The run's stored arguments, or undefined when the database or run cannot be read (preflight says why). */
function storedArgs(db: string, runId: string): Record<string, unknown> | undefined {
  try {
    const store = openStoreReadonly(db);
    try {
      const args = store.getRun(runId)?.args;
      return args && typeof args === "object" ? (args as Record<string, unknown>) : undefined;
    } finally {
      store.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * The flags a resume runs with: each selection flag as the run stored it; a flag given on
 * this command line that differs from it is refused.
 */
export function withStoredSelection<F extends Selection & { resume?: string; db: string }>(
  flags: F,
  command: Command,
): F {
  if (!flags.resume) return flags;
  const stored = storedArgs(flags.db, flags.resume);
  if (!stored) return flags;
  const resumed: F = { ...flags };
  for (const key of SELECTION_FLAGS) {
    const raw = stored[key];
    const kept = typeof raw === "string" ? raw : typeof raw === "number" ? String(raw) : undefined;
    if (command.getOptionValueSource(key) === "cli") {
      if (flags[key] !== kept) {
        const flag = command.options.find((o) => o.attributeName() === key)?.long ?? key;
        throw new CliError(
          `${flag} ${flags[key]} contradicts run ${flags.resume}, which was swept with ${flag} ${shellText(kept)}: a resume sweeps what the run swept; leave ${flag} out, or start a new run`,
        );
      }
      continue;
    }
    if (kept !== undefined) resumed[key] = kept as F[typeof key];
    // A run that stored no value for a flag with a default (an older gatecheck's) keeps it.
    else if (command.getOptionValueSource(key) !== "default") delete resumed[key];
  }
  return resumed;
}
