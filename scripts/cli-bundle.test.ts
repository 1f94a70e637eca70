import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };
import { LENS_FIXTURES } from "../probes/lens/fixture-values.ts";
import {
  buildCliBundle,
  CLI_BUNDLE_DIR,
  cliBundle,
  currentCliBundle,
  removeOldOutput,
} from "./cli-bundle.mjs";

const ROOT = join(import.meta.dirname, "..");
const EXCHANGE = join(LENS_FIXTURES, "anthropic-to-chat-non-stream-lossy.json");
const MANIFEST = join(CLI_BUNDLE_DIR, "manifest.json");

/** The bin as `npx gatecheck` starts it, and the same sources through tsx, as it ran before. */
function run(how: "bin" | "sources", args: string[]) {
  const prefix =
    how === "bin"
      ? [join(ROOT, "scripts", "gatecheck.mjs")]
      : ["--import", "tsx", join(ROOT, "scripts", "cli.ts")];
  const result = spawnSync(process.execPath, [...prefix, ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/**
 * The packages a bundle file loads before any of its code runs: its static imports (`from
 * "..."`; an action's chunk is an `import(...)`, loaded when its command runs), followed
 * through the chunks of ours they name.
 */
function packagesLoadedAtStart(file: string): string[] {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [file];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    for (const [, spec = ""] of readFileSync(next, "utf8").matchAll(/\bfrom\s*"([^"]+)"/g)) {
      if (spec.startsWith(".")) pending.push(join(dirname(next), spec));
      else packages.add(spec);
    }
  }
  return [...packages].sort();
}

describe("the CLI bundle", { timeout: 300_000 }, () => {
  it("answers as the sources do: help, version, a check, a usage error", async () => {
    await cliBundle();
    for (const args of [
      ["--help"],
      ["sweep", "--help"],
      ["--version"],
      ["check", "--json", EXCHANGE],
      ["check", "--no-such-flag"],
    ]) {
      expect(run("bin", args), args.join(" ")).toEqual(run("sources", args));
    }
    expect(run("bin", ["--version"]).out).toBe(`${packageJson.version}\n`);
  });

  it("starts on commander alone: the command definitions load no action, database or dialect", async () => {
    const entry = await cliBundle();
    // Was better-sqlite3, commander, node:crypto and zod: the definitions took their default
    // --db from results/store.ts, and the store brings the database, the schemas and every
    // dialect module to a `--help`.
    expect(packagesLoadedAtStart(entry)).toEqual(["commander"]);
  });

  it("keeps no import.meta: each source's location is written in, so files beside it are found", async () => {
    const entry = await cliBundle();
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as { entry: string };
    expect(join(CLI_BUNDLE_DIR, manifest.entry)).toBe(entry);
    const text = readFileSync(entry, "utf8");
    expect(text).not.toContain("import.meta");
    expect(text).not.toMatch(/from "[^"]*\.ts"/);
  });

  it("is used while its sources are unchanged and built again when one changed", async () => {
    const entry = await cliBundle();
    expect(currentCliBundle()).toBe(entry);
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as {
      entry: string;
      inputs: Record<string, { size: number; mtimeMs: number }>;
    };
    const sources = Object.keys(manifest.inputs);
    // Every source of ours the CLI loads, and the build recipe itself.
    expect(sources).toEqual(
      expect.arrayContaining([
        "scripts/cli.ts",
        "scripts/actions/sweep.ts",
        "probes/lens/judge-exchange.ts",
        "scripts/cli-bundle.mjs",
      ]),
    );
    expect(sources.some((path) => path.startsWith("node_modules") || path.startsWith("/"))).toBe(
      false,
    );
    // As if a lens file had been edited since the build.
    const edited = "probes/lens/judge-exchange.ts";
    writeFileSync(
      MANIFEST,
      JSON.stringify({
        ...manifest,
        inputs: { ...manifest.inputs, [edited]: { size: 1, mtimeMs: 1 } },
      }),
    );
    expect(currentCliBundle()).toBeUndefined();
    // The bin builds again before it starts, to the same content.
    expect(run("bin", ["--version"]).code).toBe(0);
    expect(currentCliBundle()).toBe(entry);
    // An unreadable manifest is a build, not an error.
    writeFileSync(MANIFEST, "{not json");
    expect(currentCliBundle()).toBeUndefined();
    expect(await buildCliBundle()).toBe(entry);
  });
});

it("removes old build files without failing on one that another build removed first", async () => {
  // Two `npx gatecheck` after a source change: one crashed with ENOENT when a file it had
  // listed was gone by the time it looked at it. A dangling link is such a file.
  const dir = mkdtempSync(join(tmpdir(), "gatecheck-cli-"));
  try {
    const old = join(dir, "cli-OLD.js");
    writeFileSync(old, "");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(old, twoHoursAgo, twoHoursAgo);
    writeFileSync(join(dir, "cli-NEW.js"), "");
    symlinkSync(join(dir, "removed-meanwhile.js"), join(dir, "cli-GONE.js"));
    await removeOldOutput(new Set(), dir);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(join(dir, "cli-NEW.js"))).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
