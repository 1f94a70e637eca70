/**
 * A GitHub Actions job run on this machine, for scripts/ci/nightly.test.ts: each step in
 * order, in one working folder per machine, as the runner would. `run:` steps go to the
 * runner's own default shell (`bash --noprofile --norc -eo pipefail`) with the job's `env:`;
 * a step without `if:` runs only while no step has failed, one with `if: always()` always.
 * `uses:` steps move files between machines through a folder standing for GitHub's storage:
 * artifacts and cache entries (restore by exact key, else the newest entry under a
 * `restore-keys` prefix; an entry is never overwritten). An action or an `if:` this runner
 * does not know is an error, so the workflow cannot grow a step the test skips.
 */
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import { z } from "zod";

export const stepSchema = z.object({
  run: z.string().optional(),
  uses: z.string().optional(),
  if: z.string().optional(),
  with: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type Step = z.infer<typeof stepSchema>;

export interface StepResult {
  step: Step;
  /** Did not run: an earlier step failed and this one has no `if: always()`. */
  skipped: boolean;
  status: number;
  stdout: string;
  stderr: string;
}

export interface JobContext {
  /** The machine's working folder (the checkout). */
  cwd: string;
  /** GitHub's storage: `artifacts/<name>/` and `cache/<key>/`, shared by every machine. */
  storage: string;
  /** `${{ name }}` values: `matrix.shard`, `github.run_id`, ... */
  vars: Record<string, string>;
  /** The job's `env:` (expressions not yet substituted). */
  env: Record<string, string>;
  /** Commands as the test runs them: `npx gatecheck` becomes this checkout's bin, ... */
  rewrite: (command: string) => string;
}

export function substitute(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
    const value = vars[name];
    if (value === undefined)
      throw new Error(`the workflow uses ${whole}, which the test does not set`);
    return value;
  });
}

/** Cache entries in the order they were saved, newest last (GitHub restores the newest). */
function savedKeys(storage: string): string[] {
  const order = join(storage, "cache-order.txt");
  return existsSync(order) ? readFileSync(order, "utf8").split("\n").filter(Boolean) : [];
}

/** Save a file as a cache entry, as `actions/cache/save` does; an entry is never replaced. */
export function saveCacheEntry(storage: string, key: string, file: string): void {
  if (savedKeys(storage).includes(key)) {
    throw new Error(`cache entry ${key} exists: GitHub would not save it again`);
  }
  mkdirSync(join(storage, "cache", key), { recursive: true });
  copyFileSync(file, join(storage, "cache", key, basename(file)));
  appendFileSync(join(storage, "cache-order.txt"), `${key}\n`);
}

function cacheRestore(context: JobContext, options: Record<string, string>): string {
  const cacheDir = join(context.storage, "cache");
  const saved = savedKeys(context.storage);
  const prefixes = (options["restore-keys"] ?? "").split("\n").filter(Boolean);
  const key =
    saved.find((k) => k === options.key) ??
    prefixes.map((p) => saved.findLast((k) => k.startsWith(p))).find(Boolean);
  if (!key) return "cache not found\n";
  for (const name of readdirSync(join(cacheDir, key))) {
    copyFileSync(join(cacheDir, key, name), join(context.cwd, name));
  }
  return `restored ${key}\n`;
}

function cacheSave(context: JobContext, options: Record<string, string>): string {
  const key = options.key ?? "";
  const path = options.path ?? "";
  if (!existsSync(join(context.cwd, path))) return `nothing to save at ${path}\n`;
  saveCacheEntry(context.storage, key, join(context.cwd, path));
  return `saved ${key}\n`;
}

/** A saved cache entry's folder. */
export function cacheEntry(storage: string, key: string): string {
  return join(storage, "cache", key);
}

function uploadArtifact(context: JobContext, options: Record<string, string>): string {
  const dir = join(context.storage, "artifacts", options.name ?? "");
  mkdirSync(dir, { recursive: true });
  const paths = (options.path ?? "").split("\n").filter(Boolean);
  for (const path of paths.filter((p) => existsSync(join(context.cwd, p)))) {
    copyFileSync(join(context.cwd, path), join(dir, basename(path)));
  }
  return `uploaded ${paths.join(", ")}\n`;
}

function downloadArtifact(context: JobContext, options: Record<string, string>): string {
  if (options["merge-multiple"] !== "true") throw new Error("only merge-multiple downloads here");
  const pattern = new RegExp(`^${(options.pattern ?? "*").replace(/\*/g, ".*")}$`);
  const root = join(context.storage, "artifacts");
  const names = existsSync(root) ? readdirSync(root).filter((n) => pattern.test(n)) : [];
  for (const name of names) {
    for (const file of readdirSync(join(root, name))) {
      copyFileSync(join(root, name, file), join(context.cwd, file));
    }
  }
  return `downloaded ${names.join(", ")}\n`;
}

const ACTIONS: Record<string, (c: JobContext, o: Record<string, string>) => string> = {
  "actions/checkout": () => "",
  "actions/setup-node": () => "",
  "actions/cache/restore": cacheRestore,
  "actions/cache/save": cacheSave,
  "actions/upload-artifact": uploadArtifact,
  "actions/download-artifact": downloadArtifact,
};

function runStep(step: Step, context: JobContext): Omit<StepResult, "step" | "skipped"> {
  const options = Object.fromEntries(
    Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), context.vars)]),
  );
  if (step.uses !== undefined) {
    const action = ACTIONS[step.uses.replace(/@.*$/, "")];
    if (!action) throw new Error(`the workflow uses ${step.uses}, which the test does not run`);
    return { status: 0, stdout: action(context, options), stderr: "" };
  }
  const command = context.rewrite(substitute(step.run ?? "", context.vars).trim());
  const env = Object.fromEntries(
    Object.entries(context.env).map(([k, v]) => [k, substitute(v, context.vars)]),
  );
  const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", command], {
    cwd: context.cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** A job's steps in order; the results of every step, run or skipped. */
export function runJob(steps: Step[], context: JobContext): StepResult[] {
  mkdirSync(context.cwd, { recursive: true });
  const results: StepResult[] = [];
  let failed = false;
  for (const step of steps) {
    if (step.if !== undefined && step.if.trim() !== "always()") {
      throw new Error(`the workflow has a step with if: ${step.if}, which the test does not run`);
    }
    if (failed && step.if === undefined) {
      results.push({ step, skipped: true, status: 0, stdout: "", stderr: "" });
      continue;
    }
    const result = runStep(step, context);
    results.push({ step, skipped: false, ...result });
    if (result.status !== 0) failed = true;
  }
  return results;
}
