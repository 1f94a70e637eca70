/**
 * What a sweep checks before it starts anything: the paths it will write, the run it
 * resumes or names, and the user's probes. Each failure is exit 2 with nothing written, so
 * a mistyped flag never costs a sweep's worth of time or leaves a half-made run behind.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Probe } from "../../probes/corpus/probe.ts";
import { runSelfCheck } from "../../probes/self-check/self-check.ts";
import { ResultsError } from "../../results/results-error.ts";
import { RUN_OUTPUT_FILES } from "../../results/run-outputs.ts";
import { openStoreReadonly } from "../../results/store.ts";
import { CliError } from "../exit-codes.ts";
import { requireWritableFile, requireWritableFolder } from "../paths.ts";
import { withResultsErrors } from "../results-errors.ts";

/** `--db` and `--out`, and the files the sweep writes in `--out`. */
export function checkSweepPaths(db: string, out: string): void {
  requireWritableFile(db, "--db");
  requireWritableFolder(out, "--out");
  for (const name of Object.values(RUN_OUTPUT_FILES)) requireWritableFile(join(out, name), "--out");
  requireWritableFolder(join(out, "runs"), "--out");
}

/** `--resume` names a run in `--db`; `--run-id` names none yet. */
export async function checkRunIds(db: string, ids: { resume?: string; runId?: string }) {
  if (!ids.resume && !ids.runId) return;
  if (!existsSync(db)) {
    if (!ids.resume) return;
    throw new CliError(
      `--resume ${ids.resume}: no results database at ${db}; pass the --db the run used`,
    );
  }
  await withResultsErrors(() => {
    let store: ReturnType<typeof openStoreReadonly>;
    try {
      store = openStoreReadonly(db);
    } catch (error) {
      // An older schema is migrated by the sweep's own open, which then finds the run or not.
      if (error instanceof ResultsError && error.code === "schema-version") return;
      throw error;
    }
    try {
      if (ids.resume && !store.getRun(ids.resume)) {
        const latest = store.latestRun()?.id;
        const hint = latest ? ` (the latest is ${latest})` : "";
        throw new CliError(`--resume ${ids.resume}: no such run in ${db}${hint}`);
      }
      if (ids.runId && store.getRun(ids.runId)) {
        throw new CliError(
          `--run-id ${ids.runId}: ${db} already has that run; continue it with --resume ${ids.runId}, or pick another id`,
        );
      }
    } finally {
      store.close();
    }
  });
}

/**
 * The user's probes through the same self-check as `gatecheck probes check`: a probe whose
 * field no checker knows, or whose checker cannot pass or fire, would fill the matrix with
 * `error` or with verdicts that mean nothing.
 */
export function checkUserProbes(probes: readonly Probe[], dir: string): void {
  if (probes.length === 0) return;
  const report = runSelfCheck(probes);
  if (report.failing.length === 0) return;
  const lines = report.problems.map(
    (p) => `  ${p.probe} [${p.backend}, ${p.mode}] ${p.kind}: ${p.detail}`,
  );
  throw new CliError(
    `--probes-dir ${dir}: ${report.failing.length} probe(s) fail the self-check, so the sweep would not measure them: ${report.failing.join(", ")}\n${lines.join("\n")}\n(gatecheck probes check --probes-dir ${dir} shows the same)`,
  );
}
