/**
 * `gatecheck query` as a user runs it (the bin, in a child process): a result far larger
 * than one JavaScript string streams out whole, `--timeout` ends a statement that never
 * returns, and a reader that stops early (`| head`) is not an error.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../results/store.ts";
import { cliBundle } from "../cli-bundle.mjs";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-query-cli-"));
const db = join(dir, "r.db");
beforeAll(async () => {
  openStore(db).close(); // an empty database of today's schema
  await cliBundle();
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rows = (n: number, pad: number) =>
  `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ${n}) SELECT x, printf('%0${pad}d', x) AS pad FROM c`;

describe("gatecheck query", { timeout: 300_000 }, () => {
  it("streams 120,000 rows of --json larger than any one string (~557 MB)", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "query", rows(120_000, 4600), "--db", db, "--json"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let bytes = 0;
    let tail = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      tail = (tail + chunk.toString("latin1")).slice(-10_000);
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(bytes).toBeGreaterThan(2 ** 29); // V8's longest string is 2^29 - 24 characters
    expect(tail).toMatch(/"x": 120000,\n {4}"pad": "0+120000"\n {2}\}\n\]\n$/);
  });

  it("--timeout ends a statement that never returns: exit 2 and what to do", () => {
    const endless =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
    const run = spawnSync(process.execPath, [BIN, "query", endless, "--db", db, "--timeout", "1"], {
      encoding: "utf8",
    });
    expect(run.stderr).toContain("query stopped after 1 s (--timeout)");
    expect(run.status).toBe(2);
    const bad = spawnSync(
      process.execPath,
      [BIN, "query", "SELECT 1", "--db", db, "--timeout", "0"],
      {
        encoding: "utf8",
      },
    );
    expect([bad.status, bad.stderr]).toEqual([
      2,
      'gatecheck: --timeout takes a number of seconds > 0, got "0"\n',
    ]);
    // Within its time, the answer is the one without --timeout.
    const quick = spawnSync(
      process.execPath,
      [BIN, "query", "SELECT 1 AS one", "--db", db, "--timeout", "30", "--json"],
      {
        encoding: "utf8",
      },
    );
    expect([quick.status, quick.stdout]).toEqual([0, '[\n  {\n    "one": 1\n  }\n]\n']);
  });

  it("ends quietly when its reader stops early", () => {
    const run = spawnSync(
      "sh",
      [
        "-c",
        `"${process.execPath}" "${BIN}" query "${rows(200_000, 10)}" --db "${db}" | head -3; exit \${PIPESTATUS:-0}`,
      ],
      {
        encoding: "utf8",
      },
    );
    // Widths come from the first 1,000 rows: `x` is 4 wide.
    expect(run.stdout.split("\n").slice(0, 3)).toEqual([
      "x    │ pad",
      "─────┼───────────",
      "1    │ 0000000001",
    ]);
    expect(run.stderr).toBe("");
  });
});
