import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, describe, expect, it, vi } from "vitest";
import { exchangeJson, parseWireExchange } from "../../probes/exchange.ts";
import { openStoreReadonly } from "../../results/store.ts";
import { CELL, FIXTURE, RUN, storeAttempt } from "../../sweep/testing-stored-attempt.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { registerCheck } from "./check.ts";
import { registerExport } from "./export.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-export-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = join(dir, "one.db");
storeAttempt(db, parseWireExchange(exchangeJson(readFileSync(FIXTURE, "utf8")), FIXTURE));

async function cli(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  const program = new Command().exitOverride();
  registerExport(program);
  registerCheck(program);
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(["node", "gatecheck", ...args]);
    return { out, err: "", code: EXIT.ok };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { out, err: error.message, code: error.exitCode };
  } finally {
    vi.restoreAllMocks();
  }
}

const cell = ["--db", db, "--column", CELL.column, "--route", CELL.routeId, "--probe", "oc-seed"];

describe("gatecheck export", () => {
  it("writes a stored attempt that `gatecheck check` judges as the sweep did", async () => {
    const file = join(dir, "seed.json");
    const written = await cli("export", ...cell, "--mode", "non-stream", "--out", file);
    expect(written).toMatchObject({ code: EXIT.ok, out: "" });
    expect(readFileSync(file, "utf8")).toContain(`run ${RUN}`);
    const checked = await cli("check", file, "--json");
    const seed = (JSON.parse(checked.out) as { field: string; verdict: string }[]).find(
      (v) => v.field === "seed",
    );
    expect(seed?.verdict).toBe("no-equivalent");
  });

  it("writes the same exchange by its attempt_id (the matrix's #N), without naming the cell", async () => {
    const store = openStoreReadonly(db);
    const id = store.db
      .prepare(`SELECT attempt_id FROM attempts WHERE probe_id = 'oc-seed' AND phase = 'main'`)
      .pluck()
      .get() as number;
    store.close();
    const byCell = await cli("export", ...cell, "--mode", "non-stream");
    const byId = await cli("export", "--db", db, "--attempt-id", String(id));
    expect(byId).toMatchObject({ code: EXIT.ok, out: byCell.out });
    expect(await cli("export", "--db", db, "--attempt-id", "999999")).toMatchObject({
      code: EXIT.usage,
      err: expect.stringContaining("no attempt with attempt_id 999999"),
    });
    expect(await cli("export", "--db", db, "--attempt-id", "1.5")).toMatchObject({
      code: EXIT.usage,
      err: "--attempt-id: expected a whole number ≥ 1, got 1.5",
    });
    expect(
      await cli(
        "export",
        "--db",
        db,
        "--attempt-id",
        String(id),
        "--probe",
        "oc-seed",
        "--phase",
        "main",
      ),
    ).toMatchObject({
      code: EXIT.usage,
      err: "--attempt-id names one attempt of one run: leave out --probe, --phase",
    });
    expect(await cli("export", "--db", db, "--probe", "oc-seed")).toMatchObject({
      code: EXIT.usage,
      err: "export needs --attempt-id, or --column, --route, --probe and --mode: missing --column, --route, --mode",
    });
  });

  it("exits 2 on a bad option or a cell that is not stored, saying which", async () => {
    expect(await cli("export", ...cell, "--mode", "fast")).toMatchObject({
      code: EXIT.usage,
      err: "--mode: expected stream or non-stream, got fast",
    });
    const missing = await cli("export", ...cell, "--mode", "stream");
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toMatch(/has no cell .*"mode":"stream"/);
  });
});
