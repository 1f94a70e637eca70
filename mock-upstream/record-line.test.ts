/**
 * The recorder's shortcuts against the plain way: a traffic record's line against
 * `JSON.stringify` of the record object, the ring's reads against a full list, the
 * remembered header redaction against dialects/credentials.ts.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMockApp, createMockState } from "./app.ts";
import type { MockRecord } from "./record.ts";
import { lineJson } from "./record-line.ts";
import { Recorder } from "./recorder.ts";
import { trafficInput } from "./test-helpers.ts";
import { type TrafficRecordInput, trafficRecord, trafficRecordLine } from "./traffic-record.ts";

function input(body: string, replyBody: Buffer, path = "/v1/chat/completions"): TrafficRecordInput {
  return trafficInput(body, replyBody, path, [
    ["Host", "127.0.0.1:9"],
    ["Authorization", "Bearer sk-proj-abcdefghijklmnop1234"],
  ]);
}

const lineOf = (i: TrafficRecordInput) => lineJson(trafficRecordLine(i));

describe("traffic record line", () => {
  const reply = Buffer.from('{"id":"x","choices":[{"message":{"content":"\\"hi\\" ü"}}]}');

  it("is exactly JSON.stringify(record) for a compact body", () => {
    const body = JSON.stringify({
      model: "gpt-4o-mini",
      api_key: "hunter2-secret",
      messages: [{ role: "user", content: "say ü gc-0123456789abcdef sk-ant-abcdefghijk" }],
    });
    const i = input(body, reply);
    expect(lineOf(i)).toBe(JSON.stringify(trafficRecord(i)));
    expect(lineOf(i)).not.toContain("hunter2-secret");
    expect(lineOf(i)).not.toContain("sk-proj-abcdefghijklmnop1234");
  });

  it("gives the same record for bodies whose text is not JSON.stringify's", () => {
    const bodies = [
      '{ "model" : "m",\t"n": 1.50, "e": "caf\\u00e9", "a": [ 1 , 2 ] }',
      '{"dup":1,"dup":2,"big":12345678901234567890}',
      '{"model":"m",\n  "messages": []\r\n}',
      '{"s":"line\\u2028sep"}',
      "[1,2]",
      "not json at all",
    ];
    for (const body of bodies) {
      const i = input(body, reply);
      const line = lineOf(i);
      expect(line, body).not.toMatch(/[\n\r]/);
      expect(JSON.parse(line), body).toEqual(JSON.parse(JSON.stringify(trafficRecord(i))));
    }
  });

  it("splices a large reply body as shared bytes and joins to the same line", () => {
    const sse = Buffer.from(
      Array.from({ length: 200 }, (_, n) => `data: {"t":"tok${n} ü\\n"}\n\n`).join(""),
    );
    const i = input('{"model":"m"}', sse);
    const line = trafficRecordLine(i);
    expect(typeof line).not.toBe("string");
    expect(lineJson(line)).toBe(JSON.stringify(trafficRecord(i)));
  });

  it("keeps optional keys in the record's order", () => {
    const i = input('{"model":"m"}', reply, "/nowhere");
    const keys = Object.keys(JSON.parse(lineOf(i)));
    expect(keys).toEqual(Object.keys(trafficRecord(i)));
    expect(keys).not.toContain("stream");
    expect(keys.at(-1)).toBe("reply");
  });
});

function sample(seq: number, nonce?: string): MockRecord {
  return {
    seq,
    receivedAt: "2026-11-30T05:00:00.000Z",
    listener: "mock",
    request: {
      method: "POST",
      path: "/v1/messages",
      headers: [["host", "x"]],
      body: { data: "{}", encoding: "utf8" },
    },
    bodyBytes: 2,
    ...(nonce ? { nonce } : {}),
    reply: { status: 200, staged: false, headers: [], body: { data: "", encoding: "utf8" } },
  };
}

describe("recorder memory ring", () => {
  it("forgets the oldest past maxRecords, keeps the file whole, and reads back in seq order", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gatecheck-ring-"));
    try {
      const file = join(dir, "r.jsonl");
      const recorder = new Recorder(file, { maxRecords: 3 });
      const records = [1, 2, 3, 5, 4].map((seq) =>
        sample(seq, seq % 2 ? "gc-00000000000000aa" : undefined),
      );
      for (const r of records) recorder.add(r);
      expect(recorder.count).toBe(3);
      expect(recorder.evicted).toBe(2);
      expect(recorder.recorded).toBe(5);
      expect(recorder.list().map((r) => r.seq)).toEqual([3, 4, 5]);
      expect(recorder.list({ nonce: "gc-00000000000000aa" }).map((r) => r.seq)).toEqual([3, 5]);
      expect(recorder.list({ since: 3 }).map((r) => r.seq)).toEqual([4, 5]);
      for (const filter of [{}, { since: 4 }, { nonce: "gc-00000000000000aa" }]) {
        expect(recorder.listJson(filter)).toBe(JSON.stringify(recorder.list(filter)));
        // In pieces of any size, the same text.
        for (const size of [1, 50, 1e6]) {
          expect([...recorder.listJsonChunks(filter, size)].join("")).toBe(
            recorder.listJson(filter),
          );
        }
      }
      await recorder.close();
      const lines = readFileSync(file, "utf8").trimEnd().split("\n");
      expect(lines).toEqual(records.map((r) => JSON.stringify(r)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("finds a nonce's records by its index as a full scan would, through eviction and clear", () => {
    const recorder = new Recorder(undefined, { maxRecords: 100 });
    const nonces = Array.from({ length: 7 }, (_, i) => `gc-${String(i).padStart(16, "0")}`);
    // Past 1,024 spent slots the ring's array is compacted; the index must not care.
    for (let seq = 1; seq <= 3000; seq++) recorder.add(sample(seq, nonces[seq % 8]));
    const all = recorder.list();
    expect(all).toHaveLength(100);
    for (const nonce of nonces) {
      const found = recorder.list({ nonce }).map((r) => r.seq);
      expect(found).toEqual(all.filter((r) => r.nonce === nonce).map((r) => r.seq));
      expect(found.length).toBeGreaterThan(10);
      expect(recorder.list({ nonce, since: 2950 }).every((r) => r.seq > 2950)).toBe(true);
    }
    recorder.clear();
    expect(recorder.list({ nonce: nonces[1] })).toEqual([]);
    recorder.add(sample(3001, nonces[1]));
    expect(recorder.list({ nonce: nonces[1] }).map((r) => r.seq)).toEqual([3001]);
  });

  it("answers a nonce as a full scan does when asked between records, evictions and clears", () => {
    // The index is brought up to date only when a nonce is asked for: every mix of indexed
    // and not yet indexed records, evicted from either side, must answer the same.
    let state = 7;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    const pool = Array.from({ length: 5 }, (_, i) => `gc-${String(i).padStart(16, "0")}`);
    const recorder = new Recorder(undefined, { maxRecords: 40 });
    let asked = 0;
    for (let seq = 1; seq <= 4000; seq++) {
      const pick = random(10);
      const nonce =
        pick < 5 ? pool[pick] : pick < 8 ? `gc-${seq.toString(16).padStart(16, "0")}` : undefined;
      recorder.add(sample(seq, nonce));
      if (random(7) === 0) {
        const all = recorder.list();
        const wanted = random(3) === 0 ? all[random(all.length)]?.nonce : pool[random(5)];
        if (wanted === undefined) continue;
        asked += 1;
        expect(recorder.list({ nonce: wanted }).map((r) => r.seq)).toEqual(
          all.filter((r) => r.nonce === wanted).map((r) => r.seq),
        );
      }
      if (random(500) === 0) recorder.clear();
    }
    expect(asked).toBeGreaterThan(300);
  });

  it("finds fresh nonces (a record each) and a nonce's second record, through eviction", () => {
    const recorder = new Recorder(undefined, { maxRecords: 50 });
    const nonceOf = (n: number) => `gc-${n.toString(16).padStart(16, "0")}`;
    for (let seq = 1; seq <= 200; seq++) recorder.add(sample(seq, nonceOf(seq)));
    expect(recorder.list({ nonce: nonceOf(150) }).map((r) => r.seq)).toEqual([]);
    expect(recorder.list({ nonce: nonceOf(151) }).map((r) => r.seq)).toEqual([151]);
    expect(recorder.list({ nonce: nonceOf(200), since: 199 }).map((r) => r.seq)).toEqual([200]);
    // A second record of a kept nonce, then the first one evicted: the second stays found.
    recorder.add(sample(201, nonceOf(160)));
    expect(recorder.list({ nonce: nonceOf(160) }).map((r) => r.seq)).toEqual([160, 201]);
    for (let seq = 202; seq <= 215; seq++) recorder.add(sample(seq, nonceOf(seq)));
    expect(recorder.list({ nonce: nonceOf(160) }).map((r) => r.seq)).toEqual([201]);
    // An evicted nonce seen again starts afresh.
    recorder.add(sample(216, nonceOf(3)));
    expect(recorder.list({ nonce: nonceOf(3) }).map((r) => r.seq)).toEqual([216]);
    expect(recorder.listJson({ nonce: nonceOf(3) })).toBe(
      JSON.stringify([sample(216, nonceOf(3))]),
    );
  });

  it("keeps one shared nonce's list in step with eviction, past its compaction", () => {
    const recorder = new Recorder(undefined, { maxRecords: 100 });
    const shared = "gc-5ba7ed0000000001";
    for (let seq = 1; seq <= 5000; seq++) recorder.add(sample(seq, seq % 10 ? shared : undefined));
    const all = recorder.list();
    const found = recorder.list({ nonce: shared }).map((r) => r.seq);
    expect(found).toEqual(all.filter((r) => r.nonce === shared).map((r) => r.seq));
    expect(found).toHaveLength(90);
    expect(found[0]).toBe(4901);
    expect(recorder.listJson({ nonce: shared })).toBe(
      JSON.stringify(recorder.list({ nonce: shared })),
    );
  });

  it("keeps under maxBytes, but always the newest record", () => {
    const recorder = new Recorder(undefined, { maxBytes: 1 });
    recorder.add(sample(1));
    recorder.add(sample(2));
    expect(recorder.list().map((r) => r.seq)).toEqual([2]);
    const roomy = new Recorder(undefined, { maxBytes: 2 * JSON.stringify(sample(1)).length + 2 });
    for (const seq of [1, 2, 3]) roomy.add(sample(seq));
    expect(roomy.list().map((r) => r.seq)).toEqual([2, 3]);
  });

  it("gives fresh copies: changing one does not change the kept record", () => {
    const recorder = new Recorder();
    recorder.add(sample(1));
    const [first] = recorder.list();
    if (first) first.request.path = "/changed";
    expect(recorder.list()[0]?.request.path).toBe("/v1/messages");
  });

  it("keeps answering from memory when the file cannot be opened, and says why on close", async () => {
    const recorder = new Recorder(join(tmpdir(), "gatecheck-no-such-dir", "x", "r.jsonl"));
    recorder.add(sample(1));
    expect(recorder.list()).toHaveLength(1);
    expect(recorder.failure?.message).toMatch(/ENOENT/);
    await expect(recorder.close()).rejects.toThrow(/ENOENT/);
  });
});

describe("records beyond the memory limit", () => {
  it("the control API lists the newest ones, and health counts the forgotten", async () => {
    const state = createMockState({ memoryLimits: { maxRecords: 2 } });
    const app = createMockApp({}, state);
    for (const n of ["gc-0000000000000001", "gc-0000000000000002", "gc-0000000000000003"]) {
      const res = await app.request("/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: n }] }),
      });
      await res.arrayBuffer();
    }
    const health = await (await app.request("/__gatecheck/health")).json();
    expect(health).toMatchObject({ records: 2, evicted: 1 });
    const listed = await app.request("/__gatecheck/records");
    expect(listed.headers.get("content-type")).toBe("application/json");
    const body = (await listed.json()) as { records: MockRecord[] };
    expect(body.records.map((r) => r.nonce)).toEqual([
      "gc-0000000000000002",
      "gc-0000000000000003",
    ]);
    expect(body.records).toEqual(state.recorder.list());
  });
});
