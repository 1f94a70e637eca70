import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { CliError, EXIT } from "../exit-codes.ts";
import { registerRescore } from "./rescore.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-rescore-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function exitOf(...args: string[]): Promise<{ code: number; message: string }> {
  const program = new Command().exitOverride();
  registerRescore(program);
  try {
    await program.parseAsync(["node", "gatecheck", "rescore", ...args]);
    return { code: EXIT.ok, message: "" };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { code: error.exitCode, message: error.message };
  }
}

describe("gatecheck rescore", () => {
  it("exits 2 on a database that does not exist, and leaves no file behind", async () => {
    const missing = join(dir, "typo.db");
    const r = await exitOf("--db", missing);
    expect(r.code).toBe(EXIT.usage);
    expect(r.message).toContain(`cannot open results database ${missing}`);
    expect(existsSync(missing)).toBe(false);
  });

  it("exits 2 on a bad --workers before opening anything", async () => {
    const r = await exitOf("--db", join(dir, "x.db"), "--workers", "-1");
    expect(r.code).toBe(EXIT.usage);
    expect(r.message).toContain("--workers");
  });
});
