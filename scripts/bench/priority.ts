/**
 * A benchmark on a shared machine: ask the scheduler to run this process, and every process
 * it starts (they inherit it), ahead of ordinary work, so that other people's test suites on
 * the same cores disturb the figures less. Lowering a nice value needs root (or
 * CAP_SYS_NICE); where it is refused the benchmark runs at its normal priority and says so.
 * What it changes on this machine is measured in docs/mock.md (Performance).
 */
import { getPriority, setPriority } from "node:os";

/** The nice value benchmarks ask for unless told otherwise (`--priority`). */
export const BENCH_PRIORITY = -15;

/** Raise this process's priority; returns the line that says what the figures ran at. */
export function raisePriority(wanted: number = BENCH_PRIORITY): string {
  try {
    setPriority(wanted);
    return `scheduling priority: nice ${getPriority()}`;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `scheduling priority: nice ${getPriority()} (asked for ${wanted}, refused: ${why}; run as root for steadier figures on a shared machine)`;
  }
}
