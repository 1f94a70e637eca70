/**
 * A worker thread's code as one JavaScript file. A worker thread started on a TypeScript
 * entry registers tsx and loads ~90 modules through its loader thread: 3 to 5 s per worker on
 * the shared 2-core machine, which is as long as judging 20,000 attempts should take. esbuild
 * (the compiler tsx itself runs) bundles the worker's modules into one file in about 0.3 s,
 * and a worker starts from it in well under a second (packages such as zod and the client
 * SDKs stay imports, resolved from node_modules).
 *
 * The file is named by the hash of its text under .gatecheck-cache/workers/, so concurrent
 * runs share it and a changed lens gets a new file. Beside it, a manifest names the source
 * files it was built from with their size and mtime: while none has changed, the bundle is
 * used as it is and esbuild does not run (building took 0.3 s of this thread in every
 * rescore, and starting esbuild's process delayed a sweep's first cells). `workerBundle`
 * builds in this thread (a rescore waits for its workers anyway); `workerBundleAsync` in
 * esbuild's own process, so a sweep keeps answering while its worker is built. When esbuild
 * cannot build (it is a native binary), callers fall back: slower, same judgements.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type BuildOptions, type BuildResult, build, buildSync } from "esbuild";
import { z } from "zod";

const ROOT = join(import.meta.dirname, "..");
export const WORKER_BUNDLE_DIR = join(ROOT, ".gatecheck-cache", "workers");

/** The workers there are, by the name their bundle files start with. */
export const WORKER_ENTRIES = {
  "rescore-worker": join(import.meta.dirname, "rescore-worker.ts"),
  "judge-worker": join(import.meta.dirname, "judge-worker.ts"),
} as const;

export type WorkerName = keyof typeof WORKER_ENTRIES;

function options(name: WorkerName): BuildOptions & { write: false; metafile: true } {
  return {
    entryPoints: [WORKER_ENTRIES[name]],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    // The manifest's paths are relative to this folder, wherever the command was started.
    absWorkingDir: ROOT,
    write: false,
    metafile: true,
    logLevel: "silent",
  };
}

/** What a bundle was built from: its file, and each source's size and mtime. */
const manifestSchema = z.object({
  file: z.string(),
  inputs: z.record(z.string(), z.object({ size: z.number(), mtimeMs: z.number() })),
});
type Manifest = z.infer<typeof manifestSchema>;

export const manifestPath = (name: WorkerName) => join(WORKER_BUNDLE_DIR, `${name}.manifest.json`);

function sourceStamp(path: string): { size: number; mtimeMs: number } | undefined {
  try {
    const stat = statSync(join(ROOT, path));
    return { size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  }
}

/** The last bundle built, when none of its sources has changed since. */
function unchangedBundle(name: WorkerName): string | undefined {
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestPath(name), "utf8")));
  } catch {
    return undefined; // none yet, or unreadable: build
  }
  if (!existsSync(manifest.file)) return undefined;
  for (const [path, stamp] of Object.entries(manifest.inputs)) {
    const now = sourceStamp(path);
    if (now?.size !== stamp.size || now.mtimeMs !== stamp.mtimeMs) return undefined;
  }
  return manifest.file;
}

/** Written aside and renamed: a concurrent run never reads half a file. */
function writeWhole(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** The bundle's text written once under its hash, and its manifest; returns its path. */
function cached(name: WorkerName, built: BuildResult<{ write: false; metafile: true }>): string {
  const text = built.outputFiles[0]?.text;
  if (text === undefined) throw new Error(`esbuild produced no output for the ${name}`);
  const digest = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const file = join(WORKER_BUNDLE_DIR, `${name}-${digest}.mjs`);
  mkdirSync(WORKER_BUNDLE_DIR, { recursive: true });
  if (!existsSync(file)) writeWhole(file, text);
  const inputs: Manifest["inputs"] = {};
  for (const path of Object.keys(built.metafile.inputs)) {
    const stamp = sourceStamp(path);
    if (!stamp) return file; // a source moved while building: no manifest, build next time
    inputs[path] = stamp;
  }
  writeWhole(manifestPath(name), JSON.stringify({ file, inputs } satisfies Manifest));
  return file;
}

/** The bundled worker's path, built in this thread when a source changed since the last. */
export function workerBundle(name: WorkerName): string {
  return unchangedBundle(name) ?? cached(name, buildSync(options(name)));
}

/** The same, built without blocking this thread. */
export async function workerBundleAsync(name: WorkerName): Promise<string> {
  return unchangedBundle(name) ?? cached(name, await build(options(name)));
}
