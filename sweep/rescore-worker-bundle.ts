/**
 * The rescore worker as one JavaScript file. A worker thread started on the TypeScript entry
 * registers tsx and loads ~90 modules through its loader thread: 3 to 5 s per worker on the
 * shared 2-core machine, which is as long as judging 20,000 attempts should take. esbuild
 * (the compiler tsx itself runs) bundles the worker's modules into one file in about 0.3 s,
 * and a worker starts from it in well under a second (packages such as zod stay imports,
 * resolved from node_modules).
 *
 * The file is named by the hash of its text under .gatecheck-cache/workers/, so concurrent
 * rescores share it and a changed lens gets a new file. When esbuild cannot build (it is a
 * native binary), the pool falls back to the TypeScript entry: slower, same judgements.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";

const ROOT = join(import.meta.dirname, "..");
const ENTRY = join(import.meta.dirname, "rescore-worker.ts");
export const WORKER_BUNDLE_DIR = join(ROOT, ".gatecheck-cache", "workers");

/** The bundled worker's path, built when this lens's bundle is not there yet. */
export function rescoreWorkerBundle(): string {
  const built = buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    write: false,
    logLevel: "silent",
  });
  const text = built.outputFiles[0]?.text;
  if (text === undefined) throw new Error("esbuild produced no output for the rescore worker");
  const digest = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const file = join(WORKER_BUNDLE_DIR, `rescore-worker-${digest}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(WORKER_BUNDLE_DIR, { recursive: true });
    // Written aside and renamed: a concurrent rescore never starts a worker on half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return file;
}
