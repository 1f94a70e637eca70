/**
 * Every catalogued key shape (dialects/key-shapes.ts) kept off the disk by a real sweep: one
 * sample of each planted in a probe's headers, query, free text and plain-named fields, each
 * also as a URL's password; a `direct` sweep, every report and an `export` run as a user runs
 * them; then every file written (the database cell by cell, the records, MATRIX.md, the HTML
 * report with what it packs, summary.json, the exported exchange) is searched for each.
 * The mock's own test (mock-upstream/key-shapes.test.ts) adds an absolute-form request line,
 * which the sweep's client never sends.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { plantedExample } from "../dialects/key-shapes.ts";
import {
  freeText,
  headerSafe,
  inUserinfo,
  PLANTED_ROWS,
  shapesFoundIn,
} from "../dialects/planted-key-shapes.ts";
import { databaseText, filesUnder, readable } from "./disk-text.ts";

const CLI = fileURLToPath(new URL("../scripts/gatecheck.mjs", import.meta.url));

const entries = (make: (row: (typeof PLANTED_ROWS)[number]) => [string, string][]) =>
  Object.fromEntries(PLANTED_ROWS.flatMap(make));

const PROBE = {
  id: "oc-key-shapes",
  client: "openai-chat",
  axis: "request",
  field: "metadata",
  headers: entries((row) => [
    [`x-${row.name}`, headerSafe(plantedExample(row))],
    [`x-${row.name}-link`, inUserinfo(row)],
  ]),
  query: entries((row) => [
    [row.name, plantedExample(row)],
    [`${row.name}-link`, inUserinfo(row)],
  ]),
  request: {
    messages: [{ role: "user", content: PLANTED_ROWS.map(freeText).join("\n") }],
    metadata: entries((row) => [
      [row.name, plantedExample(row)],
      [`${row.name}_link`, inUserinfo(row)],
    ]),
  },
  modes: ["non-stream", "stream"],
  severity: "low",
  note: "every catalogued key shape arrives redacted, and no file the sweep writes holds one",
};

const dir = mkdtempSync(join(tmpdir(), "gatecheck-key-shapes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gatecheck(args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 240_000 });
  if (run.status !== 0) {
    throw new Error(`gatecheck ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  }
  return run;
}

describe("a sweep with every catalogued key shape planted", () => {
  it("writes none to the database, records, MATRIX.md, HTML, summary.json or an export", () => {
    const probes = join(dir, "probes");
    const out = join(dir, "out");
    mkdirSync(probes);
    writeFileSync(join(probes, "key-shapes.json"), JSON.stringify([PROBE]));
    const db = join(out, "gc.db");
    gatecheck([
      ...["sweep", "--gateways", "direct", "--probes", PROBE.id, "--probes-dir", probes],
      ...["--repeats", "1", "--out", out, "--db", db],
    ]);
    const reports = join(out, "reports");
    mkdirSync(reports);
    gatecheck([
      ...["report", "--db", db, "--md", join(reports, "MATRIX.md")],
      ...["--html", join(reports, "report.html"), "--json", join(reports, "summary.json")],
    ]);
    const handle = new Database(db, { readonly: true });
    const attempts = handle.prepare("SELECT attempt_id FROM attempts").pluck().all() as number[];
    handle.close();
    expect(attempts.length).toBeGreaterThan(0);
    for (const id of attempts) {
      gatecheck([
        "export",
        "--db",
        db,
        "--attempt-id",
        String(id),
        "--out",
        join(out, `${id}.json`),
      ]);
    }
    const files = filesUnder(out);
    const names = files.map((f) => f.slice(out.length));
    for (const kind of [
      "jsonl",
      "db",
      "MATRIX.md",
      "report.html",
      "summary.json",
      `${attempts[0]}.json`,
    ]) {
      expect(
        names.some((n) => n.endsWith(kind)),
        kind,
      ).toBe(true);
    }
    const leaks: string[] = [];
    for (const file of files) {
      const text = readable(readFileSync(file).toString("latin1"));
      const withDb = file.endsWith(".db") ? `${text}\n${readable(databaseText(file))}` : text;
      leaks.push(...shapesFoundIn(withDb, file.slice(out.length)));
    }
    expect(leaks).toEqual([]);
    // The samples were sent and stored: redacted where they stood.
    const exported = readFileSync(join(out, `${attempts[0]}.json`), "utf8");
    expect(exported).toContain(`x-${PLANTED_ROWS[0]?.name}`);
    expect(exported).toContain("[REDACTED:");
  });
});
