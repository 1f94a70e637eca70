/**
 * The recorder thread against the main-thread recorder: the same requests give the same
 * file, byte for byte, and the same records; a record is readable the moment its reply
 * arrived; a file that cannot be written is reported as before.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockHandle, startMock } from "./index.ts";
import { lineJson } from "./record-line.ts";
import {
  BatchReader,
  decodeTrafficLines,
  encodeTrafficLine,
  RecordBatch,
} from "./record-message.ts";
import type { RecordCallResult, RecordWorkerData } from "./record-worker.ts";
import { readJson, trafficInput } from "./test-helpers.ts";
import {
  renderTrafficLine,
  type TrafficLine,
  type TrafficRecordInput,
  trafficLine,
  trafficRecordLine,
} from "./traffic-record.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "gatecheck-record-thread-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const SECRET = "sk-proj-abcdefghijklmnop1234";
const GOOGLE = "AIzaSyA-1234567890abcdefghijklmnopqrs";
const BIG_SSE = Buffer.from(
  Array.from({ length: 300 }, (_, n) => `data: {"t":"tok${n} ü \\"q\\""}\n\n`).join(""),
);

/** Bodies that take every branch of a record: credentials, escapes, line breaks, bad bytes. */
const BODIES: (string | Buffer)[] = [
  JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
  `{"model":"m","api_key":"hunter2-secret","messages":[{"role":"user","content":"key ${SECRET}"}]}`,
  '{ "model" : "m",\t"e": "caf\\u00e9 \\u2028", "\\u0074oken": "tok-secret-1", "n": 1.50 }',
  '{\n  "model": "m",\r\n  "authorization": "Bearer zzz-secret-value"\n}',
  Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
  Buffer.concat([Buffer.from(`{"k":"${GOOGLE}`), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
  "not json at all",
  "[1,2]",
  "",
  `{"model":"big","pad":"${"x".repeat(5000)}"}`,
];

function input(body: string | Buffer, replyBody: Buffer, path: string): TrafficRecordInput {
  return trafficInput(body, replyBody, path, [
    ["Host", "127.0.0.1:9"],
    ["Authorization", `Bearer ${SECRET}`],
    ["x-goog-api-key", GOOGLE],
  ]);
}

describe("a record's trip to the thread", () => {
  it("renders the very line the main thread renders, byte for byte", () => {
    const replies = [
      Buffer.from('{"id":"x","c":"\\"hi\\" ü"}'),
      BIG_SSE,
      Buffer.from([0xff, 0x00]),
    ];
    const inputs = BODIES.flatMap((body) =>
      replies.flatMap((reply) =>
        ["/v1/chat/completions", "/v1/v1/nowhere"].map((path) => input(body, reply, path)),
      ),
    );
    // Two batches, as the main thread hands them over (a transfer), read by one reader.
    const batch = new RecordBatch();
    const reader = new BatchReader();
    const there: TrafficLine[] = [];
    for (const [n, i] of inputs.entries()) {
      encodeTrafficLine(trafficLine(i), batch);
      if (n === 20 || n === inputs.length - 1) {
        const taken = batch.take();
        const moved = structuredClone(taken, { transfer: [taken.buffer] });
        there.push(...decodeTrafficLines(moved, "gw", reader));
      }
    }
    expect(there).toHaveLength(inputs.length);
    for (const [n, i] of inputs.entries()) {
      const line = renderTrafficLine(there[n] as TrafficLine);
      const here = trafficRecordLine(i);
      expect(lineJson(line), String(i.raw.body)).toBe(lineJson(here));
      expect(typeof line).toBe(typeof here);
    }
  });

  it("sends a body's text once when it stands for `json`, and shares a large reply's bytes", () => {
    const batch = new RecordBatch();
    const compact = trafficLine(input(BODIES[0] as string, BIG_SSE, "/v1/x"));
    encodeTrafficLine(compact, batch);
    const first = batch.size;
    encodeTrafficLine(compact, batch);
    const taken = batch.take();
    const bytes = Buffer.from(taken.buffer, 0, taken.length);
    const needle = Buffer.from(compact.rawBody, "utf16le");
    let copies = 0;
    for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) copies++;
    // Once in the first record; the second repeats every field, each sent as `=`.
    expect(copies).toBe(1);
    expect(taken.length - first).toBeLessThan(200);
    const [a, b] = decodeTrafficLines(taken, "gw", new BatchReader());
    expect(a?.jsonText).toBe(compact.rawBody);
    expect(b?.rawBody).toBe(compact.rawBody);
    expect(a?.replyBytes).toBe(b?.replyBytes);
    expect(a?.replyBytes.bodyJson).toBe(b?.replyBytes.bodyJson);
  });

  it("repeats a field's value after it was absent, across batches, and a literal `=`", () => {
    const base = trafficLine(input('{"model":"m"}', Buffer.from("{}"), "/v1/x"));
    const models = ["a", undefined, "a", "=", "=", "~", "a", undefined, undefined, "b"];
    const batch = new RecordBatch();
    const reader = new BatchReader();
    const back: TrafficLine[] = [];
    for (const [n, model] of models.entries()) {
      encodeTrafficLine({ ...base, seq: n, model, nonce: model }, batch);
      if (n % 3 === 2) back.push(...decodeTrafficLines(batch.take(), "gw", reader));
    }
    back.push(...decodeTrafficLines(batch.take(), "gw", reader));
    expect(back.map((line) => [line.seq, line.model, line.nonce])).toEqual(
      models.map((model, n) => [n, model, model]),
    );
  });

  it("refuses a batch that is not one, saying where", () => {
    const cut = new RecordBatch();
    encodeTrafficLine(trafficLine(input("{}", BIG_SSE, "/v1/x")), cut);
    const taken = cut.take();
    const bodies = new BatchReader();
    expect(() => decodeTrafficLines({ ...taken, length: taken.length - 3 }, "gw", bodies)).toThrow(
      /record batch: a field of \d+ runs past the end/,
    );
    const x = Buffer.from("x1:a", "utf16le");
    const junk = { buffer: x.buffer.slice(x.byteOffset, x.byteOffset + x.length), length: 8 };
    expect(() => decodeTrafficLines(junk, "gw", bodies)).toThrow(
      /record batch: no field at offset 0/,
    );
  });

  it("repeats a header list as `^` only when every pair is the same, across batches", () => {
    const base = trafficLine(input('{"model":"m"}', Buffer.from("{}"), "/v1/x"));
    const a: [string, string][] = [
      ["host", "h"],
      ["x-n", "1"],
    ];
    const lists: [string, string][][] = [
      a,
      a.map(([k, v]) => [k, v]), // equal, another array
      [["host", "h"]], // shorter
      [["host", "h"]],
      [
        ["host", "h"],
        ["x-n", "2"],
      ], // one value differs
      [], // empty
      [],
      [["^", "^"]], // the mark itself as text
      a,
    ];
    const shared = { status: 200, staged: false };
    const batch = new RecordBatch();
    const reader = new BatchReader();
    const back: TrafficLine[] = [];
    for (const [n, headers] of lists.entries()) {
      // The same reply object for the first five records, then a new one with other content.
      const reply = n < 5 ? shared : { status: 500 + n, staged: true, stagedId: `s${n}` };
      encodeTrafficLine({ ...base, seq: n, headers, replyHeaders: headers, reply }, batch);
      if (n % 4 === 1) back.push(...decodeTrafficLines(batch.take(), "gw", reader));
    }
    back.push(...decodeTrafficLines(batch.take(), "gw", reader));
    expect(back.map((line) => line.headers)).toEqual(lists);
    expect(back.map((line) => line.replyHeaders)).toEqual(lists);
    expect(back.map((line) => line.reply.status)).toEqual([
      200, 200, 200, 200, 200, 505, 506, 507, 508,
    ]);
    const again = new RecordBatch();
    encodeTrafficLine({ ...base, headers: a }, again);
    const first = again.size;
    encodeTrafficLine({ ...base, headers: a.map(([k, v]) => [k, v]) }, again);
    // The second record's headers cost one character, not their texts.
    expect(again.size - first).toBeLessThan(first - 2 * "hosth1x-n".length);
  });

  it("refuses a repeated list with none before it", () => {
    // seq, receivedAt, method, path and query, then the headers as `^`.
    const text = Buffer.from("1:11:t1:M1:/0:^", "utf16le");
    const bad = { buffer: new Uint8Array(text).buffer, length: text.length };
    expect(() => decodeTrafficLines(bad, "gw", new BatchReader())).toThrow(
      /record batch: a repeated list with none before/,
    );
  });

  it("carries any string unchanged, lone surrogates too", () => {
    const odd = trafficLine(input('{"model":"m"}', BIG_SSE, "/v1/x"));
    const strange = { ...odd, model: "\ud800x", query: "a=\u{1f600}&b=é" };
    const batch = new RecordBatch();
    encodeTrafficLine(strange, batch);
    const [back] = decodeTrafficLines(batch.take(), "gw", new BatchReader());
    expect(back?.model).toBe("\ud800x");
    expect(back?.query).toBe(strange.query);
    expect(lineJson(renderTrafficLine(back as TrafficLine))).toBe(
      lineJson(renderTrafficLine(strange)),
    );
  });
});

function send(m: MockHandle, body: string | Buffer, path = "/v1/chat/completions") {
  return fetch(`${m.url}${path}?key=${GOOGLE}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${SECRET}` },
    body,
  });
}

describe("the recorder thread in a running mock", () => {
  it("writes the same file and keeps the same records as the main-thread recorder", async () => {
    const files = { thread: join(dir, "thread.jsonl"), main: join(dir, "main.jsonl") };
    const thread = await startMock({ recordFile: files.thread, bodyLimitBytes: 4000 });
    const main = await startMock({
      recordFile: files.main,
      bodyLimitBytes: 4000,
      recordThread: false,
    });
    for (const m of [thread, main]) {
      m.stage({
        match: { nonce: "gc-00000000000000aa" },
        times: "always",
        reply: { body: { raw: BIG_SSE.toString("base64"), encoding: "base64" } },
      });
      for (const body of BODIES) await (await send(m, body)).arrayBuffer();
      const staged = JSON.stringify({ model: "m", messages: [{ content: "gc-00000000000000aa" }] });
      await (await send(m, staged)).arrayBuffer();
      await (await send(m, staged, "/v1/v1/chat/completions")).arrayBuffer();
      await (await fetch(`${m.url}/v1/models`, { headers: { "x-api-key": SECRET } })).arrayBuffer();
    }
    // The two mocks differ only in arrival times, the port in the Host header and the
    // listener's half of each reply's request id.
    const sameTime = (text: string) =>
      text
        .replace(/"receivedAt":"[^"]+"/g, '"receivedAt":"T"')
        .replace(/127\.0\.0\.1:\d+/g, "H")
        .replace(/"req_[0-9A-Za-z]+"/g, '"req"');
    const listed = (m: MockHandle) => sameTime(JSON.stringify(m.records()));
    expect(listed(thread) === listed(main)).toBe(true);
    // Closed right after the last reply: the thread's file must be complete all the same.
    await Promise.all([thread.close(), main.close()]);
    const fromThread = readFileSync(files.thread, "utf8");
    const fromMain = readFileSync(files.main, "utf8");
    expect(fromThread.split("\n")).toHaveLength(BODIES.length + 4);
    expect(fromThread).not.toContain(SECRET);
    expect(sameTime(fromThread) === sameTime(fromMain)).toBe(true);
  });

  it("has a record readable the moment its reply arrived, through records() and the API", async () => {
    const m = await startMock({ recordFile: join(dir, "visible.jsonl") });
    try {
      for (let i = 0; i < 20; i++) {
        const nonce = `gc-${i.toString(16).padStart(16, "0")}`;
        const res = await send(m, JSON.stringify({ model: "m", messages: [{ content: nonce }] }));
        await res.arrayBuffer();
        expect(m.records({ nonce }).map((r) => r.nonce)).toEqual([nonce]);
        const api = await readJson(await fetch(`${m.url}/__gatecheck/records?nonce=${nonce}`));
        expect(api.records).toHaveLength(1);
      }
      expect(m.recorded()).toBe(20);
      expect(m.records({ since: 18 }).map((r) => r.seq)).toEqual([19, 20]);
      const health = await readJson(await fetch(`${m.url}/__gatecheck/health`));
      expect(health).toMatchObject({ ok: true, records: 20 });
      m.reset();
      expect(m.records()).toEqual([]);
      await (await send(m, "{}")).arrayBuffer();
      expect(m.records().map((r) => r.seq)).toEqual([21]);
    } finally {
      await m.close();
    }
    // As with the main-thread recorder, memory still answers after close().
    expect(m.records().map((r) => r.seq)).toEqual([21]);
    expect(readFileSync(join(dir, "visible.jsonl"), "utf8").trimEnd().split("\n")).toHaveLength(21);
  });

  it("keeps answering when the file cannot be opened, says so in health, and close rejects", async () => {
    const m = await startMock({ recordFile: join(dir, "no-such-dir", "r.jsonl") });
    await (await send(m, "{}")).arrayBuffer();
    expect(m.records()).toHaveLength(1);
    const health = await readJson(await fetch(`${m.url}/__gatecheck/health`));
    expect(health.ok).toBe(false);
    expect(health.recorderError).toMatch(/ENOENT/);
    await expect(m.close()).rejects.toThrow(/ENOENT/);
  });

  it("keeps the memory limits in the thread: the newest records, and health counts the rest", async () => {
    const m = await startMock({
      recordFile: join(dir, "limits.jsonl"),
      memoryLimits: { maxRecords: 2 },
    });
    try {
      for (let i = 0; i < 5; i++) await (await send(m, "{}")).arrayBuffer();
      expect(m.records().map((r) => r.seq)).toEqual([4, 5]);
      const health = await readJson(await fetch(`${m.url}/__gatecheck/health`));
      expect(health).toMatchObject({ records: 2, evicted: 3 });
    } finally {
      await m.close();
    }
    expect(readFileSync(join(dir, "limits.jsonl"), "utf8").trimEnd().split("\n")).toHaveLength(5);
  });
});

describe("the recorder thread on its own", () => {
  it("answers every read with the reason once a batch could not be read, and still closes", async () => {
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    const workerData: RecordWorkerData = {
      file: join(dir, "broken.jsonl"),
      listener: "gw",
      limits: {},
      replies: port2,
      signal,
    };
    const worker = new Worker(new URL("./record-worker-entry.mjs", import.meta.url), {
      execArgv: [],
      workerData,
      transferList: [port2],
    });
    const call = (message: object): RecordCallResult => {
      Atomics.store(signal, 0, 0);
      worker.postMessage(message);
      // A blocking wait cannot be cut by the test's timeout: it has its own.
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const got = receiveMessageOnPort(port1);
        if (got) return got.message as RecordCallResult;
        Atomics.wait(signal, 0, 0, 1000);
      }
      throw new Error("the recorder thread did not answer in 30 s");
    };
    try {
      const good = new RecordBatch();
      encodeTrafficLine(trafficLine(input("{}", BIG_SSE, "/v1/x")), good);
      worker.postMessage(good.take());
      expect(call({ call: "stats" })).toMatchObject({ stats: { count: 1 } });
      const x = Buffer.from("x1:a", "utf16le");
      worker.postMessage({ buffer: x.buffer.slice(x.byteOffset, x.byteOffset + 8), length: 8 });
      expect(call({ call: "list", filter: {} })).toEqual({
        fatal: "record batch: no field at offset 0",
      });
      const closed = call({ call: "close" });
      expect(closed).toMatchObject({ closed: true });
      expect("closed" in closed && closed.failure?.message).toMatch(/record batch/);
      expect(readFileSync(workerData.file, "utf8").split("\n")).toHaveLength(2);
    } finally {
      await worker.terminate();
    }
  });
});
