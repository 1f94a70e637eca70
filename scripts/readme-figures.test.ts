/**
 * The README's figures block is the script's output format (not its numbers: those are a
 * real run's), and the script reads a run's figures from a database as its cells say.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isClean, isSilentDefect, type VerdictKind } from "../probes/verdict.ts";
import { openStore } from "../results/store.ts";
import { writeFixtureRun } from "../results/testing/fixture-run.ts";
import { findFiguresBlock, parseFiguresBlock, renderFiguresBlock } from "./readme-figures-block.ts";

const ROOT = join(import.meta.dirname, "..");
const SCRIPT = join(ROOT, "scripts", "readme-figures.ts");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-readme-figures-"));
const db = join(dir, "r.db");
const RUN = "2026-12-01T02-10-00Z-cccc";
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(() => {
  const store = openStore(db);
  writeFixtureRun(store, {
    runId: "2026-11-30T02-10-00Z-bbbb",
    startedAt: "2026-11-30T02:10:00.000Z",
  });
  writeFixtureRun(store, { runId: RUN, startedAt: "2026-12-01T02:10:00.000Z" });
  store.close();
  mkdirSync(join(dir, "runs", RUN), { recursive: true });
  writeFileSync(join(dir, "runs", RUN, "transcript.jsonl"), "x".repeat(1_234_567));
});

const script = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", SCRIPT, ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });

describe("README figures", () => {
  it("the README holds one block in the script's format: it parses and renders back byte for byte", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = findFiguresBlock(readme);
    expect(block).toBeDefined();
    const { command, figures } = parseFiguresBlock(block ?? "");
    expect(renderFiguresBlock(figures, command)).toBe(block);
    expect(figures.columns.length).toBeGreaterThan(1);
    // The prose before the block names the run it comes from.
    expect(readme).toContain(`Run \`${figures.runId}\``);
  });

  it("prints a run's figures as its cells count them (the latest run by default)", () => {
    const out = script("--db", db);
    expect(out.stderr).toBe("");
    expect(out.status).toBe(0);
    const { figures } = parseFiguresBlock(out.stdout.trimEnd());
    expect(figures.runId).toBe(RUN);
    expect(figures.gitSha).toBe("abc1234");
    // Megabytes to one decimal.
    expect(out.stdout).toContain("run folder 1.2 MB");
    // The same counts, taken here straight from the cells with the verdict classes.
    const sql = new Database(db, { readonly: true });
    const rows = sql
      .prepare(
        `SELECT "column" AS c, verdict AS v, count(*) AS n FROM cells WHERE run_id = ? GROUP BY 1, 2`,
      )
      .all(RUN) as { c: string; v: VerdictKind; n: number }[];
    sql.close();
    expect(figures.cells).toBe(rows.reduce((s, r) => s + r.n, 0));
    const expected = new Map<string, { clean: number; judged: number; rejected: number }>();
    for (const r of rows) {
      const e = expected.get(r.c) ?? { clean: 0, judged: 0, rejected: 0 };
      if (isClean(r.v)) e.clean += r.n;
      if (isClean(r.v) || isSilentDefect(r.v)) e.judged += r.n;
      if (r.v === "rejected") e.rejected += r.n;
      expected.set(r.c, e);
    }
    expect(
      Object.fromEntries(
        figures.columns.map((c) => [
          c.column,
          { clean: c.clean, judged: c.judged, rejected: c.rejected },
        ]),
      ),
    ).toEqual(Object.fromEntries(expected));
    expect(figures.columns.some((c) => c.clean < c.judged)).toBe(true);
  });

  it("--write replaces the README's block and nothing else", () => {
    const readme = join(dir, "README.md");
    copyFileSync(join(ROOT, "README.md"), readme);
    const before = readFileSync(readme, "utf8");
    const out = script("--db", db, "--run", "2026-11-30T02-10-00Z-bbbb", "--write", readme);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toBe(`${readme}\n`);
    const after = readFileSync(readme, "utf8");
    const oldBlock = findFiguresBlock(before) ?? "";
    const newBlock = findFiguresBlock(after) ?? "";
    expect(parseFiguresBlock(newBlock).figures.runId).toBe("2026-11-30T02-10-00Z-bbbb");
    expect(after.replace(newBlock, "")).toBe(before.replace(oldBlock, ""));
  });

  it("bad input exits 2 with the reason and writes nothing", () => {
    expect(script().status).toBe(2);
    const missing = script("--db", join(dir, "none.db"));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("no results database at");
    const unknown = script("--db", db, "--run", "nope");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("no run nope in");
    const noBlock = join(dir, "plain.md");
    writeFileSync(noBlock, "# no block\n");
    expect(script("--db", db, "--write", noBlock).status).toBe(2);
    expect(readFileSync(noBlock, "utf8")).toBe("# no block\n");
  });
});
