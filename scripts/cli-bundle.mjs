/**
 * The CLI as esbuild output: `scripts/cli.ts` and everything of ours it imports, compiled to
 * JavaScript once (at `npm ci`, by the `prepare` script) instead of by tsx at every start.
 * Plain JavaScript, so the `gatecheck` bin can use it before any TypeScript loader exists.
 *
 * Output goes to `.gatecheck-cache/cli/`: the entry and its chunks (esbuild splitting, so a
 * command loads its action's code only when it runs) under names that carry their content
 * hash, and `manifest.json` naming the entry and every source it was built from with its size
 * and mtime. The bin starts the entry while no source has changed since; otherwise it builds
 * again first (about 0.3 s), so a checkout or an edit never runs stale code. Files are never
 * overwritten (hashed names) and the manifest is written aside and renamed, so concurrent
 * starts and builds never read half a file.
 *
 * Packages stay imports resolved from node_modules. Each source's `import.meta.url` and
 * `import.meta.dirname` are replaced by that source's own location, so the files a module
 * finds beside itself (the HTML report's assets, the gateways' preloads, package.json) are
 * found from the bundle as from the sources.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = resolve(import.meta.dirname, "..");
export const CLI_BUNDLE_DIR = join(ROOT, ".gatecheck-cache", "cli");
const MANIFEST = join(CLI_BUNDLE_DIR, "manifest.json");
/** The CLI's source entry, relative to the repository as esbuild's metafile names it. */
const ENTRY_SOURCE = "scripts/cli.ts";
/** Output older than this that the manifest no longer names is removed by the next build. */
const KEEP_OLD_OUTPUT_MS = 60 * 60 * 1000;

function stamp(path) {
  try {
    const stat = statSync(join(ROOT, path));
    return { size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  }
}

/** The built entry's path while every source it was built from is unchanged, else undefined. */
export function currentCliBundle() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, "utf8"));
  } catch {
    return undefined;
  }
  if (typeof manifest?.entry !== "string" || typeof manifest.inputs !== "object") return undefined;
  for (const [path, was] of Object.entries(manifest.inputs)) {
    const now = stamp(path);
    if (now?.size !== was?.size || now.mtimeMs !== was.mtimeMs) return undefined;
  }
  const entry = join(CLI_BUNDLE_DIR, manifest.entry);
  return stamp(relative(ROOT, entry)) ? entry : undefined;
}

/** `import.meta.url` and `.dirname` of each source of ours, as that source's own location. */
const sourceLocations = {
  name: "source-locations",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${join("node_modules", "")}`)) return undefined;
      const text = await readFile(args.path, "utf8");
      const contents = text
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(dirname(args.path)));
      return { contents, loader: "ts" };
    });
  },
};

function writeAside(file, contents) {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, file);
}

/** Builds the bundle and records it; returns the entry's path. */
export async function buildCliBundle() {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [ENTRY_SOURCE],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    outdir: CLI_BUNDLE_DIR,
    entryNames: "[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    sourcemap: "linked",
    absWorkingDir: ROOT,
    plugins: [sourceLocations],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  mkdirSync(CLI_BUNDLE_DIR, { recursive: true });
  const written = new Set([basename(MANIFEST)]);
  let entry;
  for (const file of result.outputFiles) {
    written.add(basename(file.path));
    if (!stamp(relative(ROOT, file.path))) writeAside(file.path, file.contents);
  }
  for (const [path, output] of Object.entries(result.metafile.outputs)) {
    if (output.entryPoint === ENTRY_SOURCE) entry = basename(path);
  }
  if (entry === undefined) throw new Error(`esbuild wrote no entry for ${ENTRY_SOURCE}`);
  const inputs = {};
  // The builder is an input too: a changed build recipe is a changed bundle.
  for (const path of [
    ...Object.keys(result.metafile.inputs),
    relative(ROOT, import.meta.filename),
  ]) {
    const now = stamp(path);
    if (!now) throw new Error(`${path} changed while the CLI was being built; run it again`);
    inputs[path] = now;
  }
  writeAside(MANIFEST, JSON.stringify({ entry, inputs }));
  await removeOldOutput(written);
  return join(CLI_BUNDLE_DIR, entry);
}

/**
 * Earlier builds' files, once no process started in the last hour can still load them. A file
 * listed may be gone when it is looked at: another `gatecheck` building at the same time renames
 * its files into place and removes old ones too.
 */
export async function removeOldOutput(keep, dir = CLI_BUNDLE_DIR, now = Date.now()) {
  for (const name of readdirSync(dir)) {
    if (keep.has(name)) continue;
    const file = join(dir, name);
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats && now - stats.mtimeMs > KEEP_OLD_OUTPUT_MS) await rm(file, { force: true });
  }
}

/** The entry to start: the current bundle, or a fresh one. */
export async function cliBundle() {
  return currentCliBundle() ?? (await buildCliBundle());
}

// `node scripts/cli-bundle.mjs` (the `prepare` script, run by `npm ci`): build now, so the
// first `npx gatecheck` starts from the bundle.
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const started = performance.now();
  const entry = await buildCliBundle();
  const ms = (performance.now() - started).toFixed(0);
  process.stdout.write(`gatecheck: CLI bundle ${relative(ROOT, entry)} built in ${ms} ms\n`);
}
