import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS, openDb, SCHEMA_VERSION } from "./schema.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-schema-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const V2_ATTEMPT = `INSERT INTO attempts (run_id, "column", route_id, probe_id, mode, phase,
  attempt_no, status, timings, client_request, forwarded, upstream_reply, client_response,
  verdicts, client_sdk) VALUES (?, 'direct@0', 'openai-chat->openai-chat', ?, 'stream', ?, ?,
  'ok', '{"totalMs":3}', ?, '[]', '{}', '{"status":200}', '[]', ?)`;

/** A version-2 database (attempts as one table) with two runs, holes in its rowids. */
function versionTwo(path: string): void {
  const db = new Database(path);
  for (const sql of MIGRATIONS.slice(0, 2)) db.exec(sql);
  db.pragma("user_version = 2");
  for (const run of ["run-a", "run-b"]) {
    db.prepare(
      "INSERT INTO runs (id, started_at, status, gatecheck_version, args) VALUES (?, 'x', 'done', '0', '{}')",
    ).run(run);
  }
  const insert = db.prepare(V2_ATTEMPT);
  insert.run("run-a", "p1", "main", 1, '{"body":"a1"}', null);
  insert.run("run-a", "p1", "repeat", 1, '{"body":"a2"}', '{"ok":true}');
  insert.run("run-b", "p2", "main", 1, '{"body":"b1"}', null);
  db.prepare("DELETE FROM attempts WHERE client_request = ?").run('{"body":"a2"}');
  insert.run("run-b", "p3", "control", 1, '{"body":"b2"}', null);
  db.close();
}

const ALL = `SELECT rowid, run_id, "column", route_id, probe_id, mode, phase, attempt_no,
  status, timings, client_request, forwarded, upstream_reply, client_response, verdicts,
  client_sdk FROM attempts ORDER BY rowid`;

describe("migration 3: exchanges and judgements behind an attempts view", () => {
  it("keeps every attempt, its columns and its rowid (as attempt_id)", () => {
    const path = join(dir, "v2.db");
    versionTwo(path);
    const old = new Database(path, { readonly: true });
    const before = old.prepare(ALL).raw(true).all();
    old.close();
    expect(before).toHaveLength(3);

    const db = openDb(path);
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      const after = db
        .prepare(
          ALL.replace("SELECT rowid", "SELECT attempt_id").replace("BY rowid", "BY attempt_id"),
        )
        .raw(true)
        .all();
      expect(after).toEqual(before);
      // One exchange per attempt, under the attempt's old rowid.
      expect(db.prepare("SELECT id FROM exchanges ORDER BY id").pluck().all()).toEqual(
        before.map((row) => (row as unknown[])[0]),
      );
      // Equal verdict lists are stored once (all three attempts said `[]`).
      expect(db.prepare("SELECT count(*) FROM verdict_lists").pluck().get()).toBe(1);
      // The view is read-only: a writer of version 2's table gets an error, not a silent no-op.
      expect(() => db.prepare(V2_ATTEMPT).run("run-a", "p9", "main", 1, "{}", null)).toThrow(
        /view/,
      );
    } finally {
      db.close();
    }
  });
});

describe("migration 4: subjects on probes and cells", () => {
  it("gives rows written before it the subject their field names", () => {
    const path = join(dir, "v3.db");
    const old = new Database(path);
    old.function("verdicts_digest", (text: unknown) => String(text));
    for (const sql of MIGRATIONS.slice(0, 3)) old.exec(sql);
    old.pragma("user_version = 3");
    old
      .prepare(
        "INSERT INTO runs (id, started_at, status, gatecheck_version, args) VALUES ('r', 'x', 'done', '0', '{}')",
      )
      .run();
    const probe = old.prepare(
      `INSERT INTO probes (probe_id, definition_hash, client_dialect, axis, field, severity, definition)
       VALUES (?, 'h', ?, 'request', ?, 'high', '{}')`,
    );
    probe.run("oc-strict", "openai-chat", "tools[].function.strict");
    probe.run("am-strict", "anthropic-messages", "tools[].strict");
    probe.run("oc-odd", "openai-chat", "not_a_field");
    const cell = old.prepare(
      `INSERT INTO cells (run_id, "column", route_id, client_dialect, backend_dialect, probe_id,
         definition_hash, mode, verdict, reason, runs, counts, determinism, stable)
       VALUES ('r', 'g@1', ?, ?, 'gemini', ?, 'h', 'stream', 'dropped', 'x', 1, '{}', 1, 1)`,
    );
    cell.run("openai-chat->gemini", "openai-chat", "oc-strict");
    cell.run("anthropic-messages->gemini", "anthropic-messages", "am-strict");
    old.close();

    const db = openDb(path);
    try {
      const subjects = db
        .prepare("SELECT probe_id, subject FROM probes ORDER BY probe_id")
        .raw(true)
        .all();
      expect(subjects).toEqual([
        ["am-strict", "tools.strict"],
        ["oc-odd", "extras.not_a_field"],
        ["oc-strict", "tools.strict"],
      ]);
      const dropped = db
        .prepare("SELECT probe_id FROM cells WHERE subject = 'tools.strict' ORDER BY 1")
        .pluck()
        .all();
      expect(dropped).toEqual(["am-strict", "oc-strict"]);
    } finally {
      db.close();
    }
  });
});
