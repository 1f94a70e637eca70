/**
 * What the sweep's end-to-end tests share: small-sweep defaults, and the check that no
 * gateway process outlives a sweep (found by its script name on the command line, read-only:
 * tests never kill by name).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { SweepOptions } from "./run-sweep.ts";

/** A small sweep into `dir`: one repeat, non-stream, two at a time; `over` wins. */
export function testSweepOptions(dir: string, over: Partial<SweepOptions>): SweepOptions {
  return {
    columns: [],
    probes: [],
    modes: ["non-stream"],
    repeats: 1,
    minutes: 3,
    concurrency: 2,
    dbPath: join(dir, "gc.db"),
    outDir: dir,
    attemptTimeoutMs: 10_000,
    args: { test: true },
    ...over,
  };
}

/** Live processes whose command line names `script` (e.g. `lossy-gateway.mjs`). */
export function processesRunning(script: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(script) && !line.includes("ps -eo"));
}
