import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { rescoreWorkerBundle, WORKER_BUNDLE_DIR } from "./rescore-worker-bundle.ts";

describe("rescoreWorkerBundle", () => {
  it("builds one self-contained file per lens, named by its content, reused", () => {
    const file = rescoreWorkerBundle();
    expect(file.startsWith(WORKER_BUNDLE_DIR)).toBe(true);
    expect(rescoreWorkerBundle()).toBe(file);
    const text = readFileSync(file, "utf8");
    // Our modules are inside; no import reaches back into TypeScript sources or a client SDK.
    expect(text).toContain("judgeStoredJobs");
    expect(text).not.toMatch(/from "[^"]*\.ts"/);
    expect(text).not.toMatch(/from "(openai|@anthropic-ai\/sdk)"/);
  });
});
