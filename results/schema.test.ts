import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wireExchangeSchema } from "../dialects/wire/exchange.ts";
import { MIGRATIONS } from "./migrations.ts";
import { openDb, SCHEMA_VERSION } from "./schema.ts";

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

/** What every version since 2 keeps of an attempt as it was (its sides: see migration 7). */
const ALL = `SELECT rowid, run_id, "column", route_id, probe_id, mode, phase, attempt_no,
  status, timings, verdicts, client_sdk FROM attempts ORDER BY rowid`;

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

/** A version-6 database holding one attempt in the shapes the sweep stored before version 7. */
function versionSix(path: string, phase: string, attempt: Record<string, unknown>): void {
  const db = new Database(path);
  db.function("verdicts_digest", (text: unknown) => String(text));
  db.function("gatecheck_subject", (_dialect: unknown, _field: unknown) => "tools.strict");
  for (const sql of MIGRATIONS.slice(0, 6)) db.exec(sql);
  db.pragma("user_version = 6");
  db.exec(`INSERT INTO runs (id, started_at, status, gatecheck_version, args)
             VALUES ('r', 'x', 'done', '0', '{}');
           INSERT INTO cells (run_id, "column", route_id, client_dialect, backend_dialect, probe_id,
             definition_hash, mode, verdict, reason, runs, counts, determinism, stable, subject)
           VALUES ('r', 'g@1', 'openai-chat->anthropic-messages', 'openai-chat',
             'anthropic-messages', 'p', 'h', 'non-stream', 'preserved', 'x', 1, '{}', 1, 1, 's');
           INSERT INTO verdict_lists (id, digest, verdicts) VALUES (1, 'd', '[]');`);
  db.prepare(
    `INSERT INTO exchanges (id, status, timings, client_request, forwarded, upstream_reply,
       client_response, client_sdk) VALUES (7, 'ok', ?, ?, ?, 'null', ?, NULL)`,
  ).run(
    JSON.stringify(attempt.timings),
    JSON.stringify(attempt.clientRequest),
    JSON.stringify(attempt.forwarded),
    JSON.stringify(attempt.clientResponse),
  );
  db.prepare(
    `INSERT INTO judgements (run_id, "column", route_id, probe_id, mode, phase, attempt_no,
       verdicts_id, exchange_id)
     VALUES ('r', 'g@1', 'openai-chat->anthropic-messages', 'p', 'non-stream', ?, 1, 1, 7)`,
  ).run(phase);
  db.close();
}

const gzipped = gzipSync('{"type":"message"}');
const OLD_ATTEMPT = {
  timings: { firstByteMs: 4, totalMs: 1250, chunks: 1 },
  clientRequest: {
    method: "POST",
    path: "/v1/chat/completions",
    headers: [
      ["Content-Type", "application/json"],
      ["x-gatecheck-fallback-targets", "127.0.0.1:1 127.0.0.1:2"],
      ["x-gatecheck-fallback-on", "429,503"],
      ["x-gatecheck-deadline-ms", "8000"],
    ],
    body: { model: "m", messages: [] },
  },
  forwarded: [
    {
      seq: 1,
      receivedAt: "2026-11-30T02:00:00.000Z",
      listener: "mock",
      method: "POST",
      path: "/v1/messages",
      query: "beta=true",
      headers: [["Host", "127.0.0.1:1"]],
      rawBody: '{"model":"m"}',
      bodyEncoding: "utf8",
      json: { model: "m" },
      reply: { status: 503, staged: true, headers: [["Retry-After", "1"]], body: "{}" },
    },
    {
      seq: 2,
      receivedAt: "2026-11-30T02:00:01.200Z",
      listener: "second",
      method: "POST",
      path: "/v1/messages",
      query: "",
      headers: [["Host", "127.0.0.1:2"]],
      rawBody: '{"model":"m"}',
      bodyEncoding: "utf8",
      json: { model: "m" },
      reply: {
        status: 200,
        staged: true,
        headers: [["Content-Encoding", "gzip"]],
        body: gzipped.toString("base64"),
        bodyEncoding: "base64",
      },
    },
  ],
  clientResponse: {
    status: 200,
    headers: [["Content-Type", "application/json"]],
    bodyBase64: Buffer.from('{"id":"x"}').toString("base64"),
    transportError: "socket hang up",
  },
};

describe("migration 7: every attempt one exchange in the wire vocabulary", () => {
  it("reads the old sides into the exchange the sweep stores now, context out of the headers", () => {
    const path = join(dir, "v6.db");
    versionSix(path, "main", OLD_ATTEMPT);
    const db = openDb(path);
    try {
      const text = db.prepare("SELECT exchange FROM exchanges WHERE id = 7").pluck().get();
      const exchange = JSON.parse(String(text));
      expect(wireExchangeSchema.safeParse(exchange).success).toBe(true);
      expect(exchange).toEqual({
        route: { client: "openai-chat", backend: "anthropic-messages" },
        mode: "non-stream",
        clientRequest: {
          method: "POST",
          path: "/v1/chat/completions",
          headers: [
            ["content-type", "application/json"],
            ["x-gatecheck-fallback-targets", "127.0.0.1:1 127.0.0.1:2"],
            ["x-gatecheck-fallback-on", "429,503"],
            ["x-gatecheck-deadline-ms", "8000"],
          ],
          body: { data: '{"model":"m","messages":[]}', encoding: "utf8" },
        },
        forwarded: [
          {
            method: "POST",
            path: "/v1/messages?beta=true",
            headers: [["host", "127.0.0.1:1"]],
            body: { data: '{"model":"m"}', encoding: "utf8" },
          },
          {
            method: "POST",
            path: "/v1/messages",
            headers: [["host", "127.0.0.1:2"]],
            body: { data: '{"model":"m"}', encoding: "utf8" },
          },
        ],
        upstreamReply: {
          status: 200,
          headers: [["content-encoding", "gzip"]],
          body: { data: gzipped.toString("base64"), encoding: "base64" },
        },
        clientResponse: {
          status: 200,
          headers: [["content-type", "application/json"]],
          body: { data: '{"id":"x"}', encoding: "utf8" },
        },
        clientError: "socket hang up",
        context: {
          deadlineMs: 8000,
          fallback: { targets: ["127.0.0.1:1", "127.0.0.1:2"], on: [429, 503] },
        },
        timing: {
          forwarded: [
            { atMs: 0, status: 503, retryAfter: "1" },
            { atMs: 1200, status: 200 },
          ],
          clientTotalMs: 1250,
        },
      });
      // The view's side columns read out of the exchange: the upstream reply is there now.
      const row = db
        .prepare("SELECT client_request, upstream_reply, context, exchange FROM attempts")
        .get() as Record<string, string>;
      expect(JSON.parse(row.client_request ?? "")).toEqual(exchange.clientRequest);
      expect(JSON.parse(row.upstream_reply ?? "")).toEqual(exchange.upstreamReply);
      expect(JSON.parse(row.context ?? "")).toEqual(exchange.context);
      const columns = db.prepare("PRAGMA table_info(exchanges)").all() as { name: string }[];
      expect(columns.map((c) => c.name)).toEqual([
        "id",
        "status",
        "timings",
        "client_sdk",
        "exchange",
      ]);
    } finally {
      db.close();
    }
  });

  it("gives a control attempt the native route its path names, and no response as clientError", () => {
    const path = join(dir, "v6-control.db");
    versionSix(path, "control", {
      ...OLD_ATTEMPT,
      clientRequest: { method: "POST", path: "/v1/messages", headers: [], body: {} },
      forwarded: [],
      clientResponse: { status: 0, headers: [], bodyBase64: "" },
      timings: { totalMs: 3 },
    });
    const db = openDb(path);
    try {
      const exchange = JSON.parse(
        String(db.prepare("SELECT exchange FROM exchanges").pluck().get()),
      );
      expect(exchange.route).toEqual({
        client: "anthropic-messages",
        backend: "anthropic-messages",
      });
      expect(exchange.forwarded).toEqual([]);
      expect(exchange.clientResponse).toBeUndefined();
      expect(exchange.clientError).toBe("unknown transport failure");
      expect(exchange.timing).toEqual({ forwarded: [], clientTotalMs: 3 });
      expect(exchange.context).toBeUndefined();
    } finally {
      db.close();
    }
  });
});
