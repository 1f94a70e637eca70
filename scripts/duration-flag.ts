/**
 * A duration flag read once: a finite number above zero, at most MAX_DURATION_MS once in
 * milliseconds (a longer timer fires at once: mock-upstream/max-duration.ts). Exit 2 naming
 * the flag otherwise.
 */
import { MAX_DURATION_MS } from "../mock-upstream/max-duration.ts";
import { CliError } from "./exit-codes.ts";

export interface DurationUnit {
  /** The flag's unit, as its help names it. */
  name: "ms" | "seconds" | "minutes";
  ms: number;
  /** Whole numbers only (a --timeout-ms). */
  integer?: boolean;
}

export const MS: DurationUnit = { name: "ms", ms: 1, integer: true };
export const SECONDS: DurationUnit = { name: "seconds", ms: 1000 };
export const MINUTES: DurationUnit = { name: "minutes", ms: 60_000 };

/** The flag's value in its own unit. */
export function durationFlag(text: string, flag: string, unit: DurationUnit): number {
  const n = Number(text);
  const max = Math.floor(MAX_DURATION_MS / unit.ms);
  if (
    text.trim() === "" ||
    !Number.isFinite(n) ||
    n <= 0 ||
    (unit.integer && !Number.isInteger(n))
  ) {
    const what = unit.integer ? "a whole number" : "a number";
    throw new CliError(`${flag} takes ${what} of ${unit.name} > 0, got "${text}"`);
  }
  if (n * unit.ms > MAX_DURATION_MS) {
    throw new CliError(
      `${flag} ${text} is longer than gatecheck can wait: at most ${max} ${unit.name} (2^31-1 ms, Node's longest timer)`,
    );
  }
  return n;
}
