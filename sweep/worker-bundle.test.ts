import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  manifestPath,
  WORKER_BUNDLE_DIR,
  workerBundle,
  workerBundleAsync,
} from "./worker-bundle.ts";

/** Our modules are inside; no import reaches back into TypeScript sources or a client SDK. */
function expectSelfContained(file: string, mustContain: string): void {
  expect(file.startsWith(WORKER_BUNDLE_DIR)).toBe(true);
  const text = readFileSync(file, "utf8");
  expect(text).toContain(mustContain);
  expect(text).not.toMatch(/from "[^"]*\.ts"/);
}

describe("workerBundle", () => {
  it("builds one self-contained file per lens, named by its content, reused", () => {
    const file = workerBundle("rescore-worker");
    expect(workerBundle("rescore-worker")).toBe(file);
    expectSelfContained(file, "judgeStoredJobs");
    expect(readFileSync(file, "utf8")).not.toMatch(/from "(openai|@anthropic-ai\/sdk)"/);
  });

  it("builds the sweep's judging worker without blocking, to the file a blocking build names", async () => {
    const file = await workerBundleAsync("judge-worker");
    expect(workerBundle("judge-worker")).toBe(file);
    expectSelfContained(file, "judgeWire");
    // The client SDKs stay imports: the worker loads the installed ones, as the sweep does.
    expect(readFileSync(file, "utf8")).toMatch(/from "openai"/);
  });

  it("uses the last bundle while its sources are unchanged, and builds again when one changed", () => {
    const file = workerBundle("rescore-worker");
    const manifest = JSON.parse(readFileSync(manifestPath("rescore-worker"), "utf8")) as {
      file: string;
      inputs: Record<string, { size: number; mtimeMs: number }>;
    };
    expect(manifest.file).toBe(file);
    const sources = Object.keys(manifest.inputs);
    expect(sources).toContain("probes/lens/judge-exchange.ts");
    expect(sources.every((path) => !path.startsWith("/") && !path.startsWith("node_modules"))).toBe(
      true,
    );
    // As if a lens file had been edited since: the stamp on record no longer matches.
    const edited = "probes/lens/judge-exchange.ts";
    const stale = {
      ...manifest,
      inputs: { ...manifest.inputs, [edited]: { size: 1, mtimeMs: 1 } },
    };
    writeFileSync(manifestPath("rescore-worker"), JSON.stringify(stale));
    expect(workerBundle("rescore-worker")).toBe(file);
    const rebuilt = JSON.parse(readFileSync(manifestPath("rescore-worker"), "utf8"));
    expect(rebuilt.inputs[edited]).toEqual(manifest.inputs[edited]);
    // An unreadable manifest is a build, not an error.
    writeFileSync(manifestPath("rescore-worker"), "{not json");
    expect(workerBundle("rescore-worker")).toBe(file);
  });
});
