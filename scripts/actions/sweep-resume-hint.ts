import type { Command } from "commander";

/** A value as a POSIX shell reads it back unchanged. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Flags that name the run rather than what it sweeps: the hint sets them itself. */
const RUN_FLAGS = new Set(["resume", "runId", "db", "out", "json"]);

/**
 * The command that continues an interrupted run: the same selection flags as this command
 * line gave (a resume sweeping other gateways or probes would mix two sweeps in one run),
 * the database and output folder it used, and `--resume` with its id.
 */
export function resumeCommand(command: Command, runId: string, db: string, out: string): string {
  const words = ["npx", "gatecheck", "sweep"];
  for (const option of command.options) {
    const key = option.attributeName();
    if (RUN_FLAGS.has(key) || command.getOptionValueSource(key) !== "cli") continue;
    const value: unknown = command.getOptionValue(key);
    words.push(option.long ?? `--${key}`);
    if (typeof value === "string") words.push(shellWord(value));
  }
  words.push("--db", shellWord(db), "--out", shellWord(out), "--resume", shellWord(runId));
  return words.join(" ");
}
