import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { redactionTag } from "../dialects/credentials.ts";
import { MockError, type MockHandle, newNonce, startMock } from "./index.ts";
import { postJson, rawRequest, readJson } from "./test-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-mock-"));
const open: MockHandle[] = [];
afterAll(async () => {
  await Promise.all(open.map((m) => m.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function mock(options: Parameters<typeof startMock>[0] = {}): Promise<MockHandle> {
  const m = await startMock(options);
  open.push(m);
  return m;
}

const chat = (text: string, extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: text }],
  ...extra,
});

describe("recording over real HTTP", () => {
  it("keeps header order (names in lower case), exact bytes, and no secret on disk", async () => {
    const file = join(dir, "redaction.jsonl");
    const m = await mock({ recordFile: file, name: "gw-a" });
    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz012345";
    const google = "AIzaSyA-1234567890abcdefghijklmnopqrs";
    const body = `{"model":"gpt-4o-mini", "api_key":"hunter2-secret","messages":[{"role":"user","content":"key ${secret} ok"}]}`;
    const res = await rawRequest(m.url, {
      path: `/v1/chat/completions?key=${google}&x=1`,
      headers: {
        Authorization: `Bearer ${secret}`,
        "X-Custom-Thing": "kept",
        "x-goog-api-key": google,
      },
      body,
    });
    expect(res.status).toBe(200);
    await m.close();
    const disk = readFileSync(file, "utf8");
    for (const s of [secret, google, "hunter2-secret"]) expect(disk).not.toContain(s);
    const [record] = disk
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(record.listener).toBe("gw-a");
    const { headers } = record.request;
    const names = headers.map(([k]: [string, string]) => k);
    expect(names.slice(0, 4)).toEqual(["host", "connection", "content-type", "authorization"]);
    expect(headers).toContainEqual(["authorization", `Bearer ${redactionTag(secret)}`]);
    expect(headers).toContainEqual(["x-custom-thing", "kept"]);
    expect(record.request.path.split("?")[1]).toBe(`key=${redactionTag(google)}&x=1`);
    // Same secret, same tag, wherever it appeared; the rest of the bytes are untouched.
    expect(record.request.body).toEqual({
      data: body
        .replace(secret, redactionTag(secret))
        .replace("hunter2-secret", redactionTag("hunter2-secret")),
      encoding: "utf8",
    });
    const json = JSON.parse(record.request.body.data);
    expect(json.messages[0].content).toBe(`key ${redactionTag(secret)} ok`);
  });

  it("keeps a key spelled with JSON escapes out of the record, read back or not", async () => {
    const file = join(dir, "escaped.jsonl");
    const m = await mock({ recordFile: file });
    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz012345";
    const escaped = `s\\u006b${secret.slice(2)}`;
    const body = `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${escaped}"}]}`;
    const res = await rawRequest(m.url, { path: "/v1/chat/completions", headers: {}, body });
    expect(res.status).toBe(200);
    await m.close();
    const record = JSON.parse(readFileSync(file, "utf8").trimEnd());
    expect(JSON.stringify(record)).not.toContain(secret);
    const json = JSON.parse(record.request.body.data);
    expect(JSON.stringify(json)).not.toContain(secret);
    expect(json.messages[0].content).toBe(redactionTag(secret));
  });

  it("2,000 concurrent requests give exactly 2,000 parseable lines", async () => {
    const file = join(dir, "load.jsonl");
    const m = await mock({ recordFile: file });
    const nonces = Array.from({ length: 2000 }, () => newNonce());
    const statuses = await Promise.all(
      nonces.map(async (n, i) => {
        const res = await postJson(
          m.url,
          "/v1/chat/completions",
          chat(`${n} ${"x".repeat(i % 50 === 0 ? 20_000 : 10)}`),
        );
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    await m.close();
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(2000);
    const seen = new Set(lines.map((l) => JSON.parse(l).nonce));
    expect(seen).toEqual(new Set(nonces));
  });

  it("several listeners record separately", async () => {
    const [a, b] = await Promise.all([mock({ name: "a" }), mock({ name: "b" })]);
    await (
      await postJson(a.url, "/v1/messages", { model: "c", max_tokens: 1, messages: [] })
    ).text();
    await (await postJson(b.url, "/api/chat", { model: "l", messages: [], stream: false })).text();
    await (await postJson(b.url, "/api/chat", { model: "l", messages: [], stream: false })).text();
    expect(a!.records().map((r) => [r.listener, r.dialect])).toEqual([["a", "anthropic-messages"]]);
    expect(b!.records().map((r) => r.dialect)).toEqual(["ollama", "ollama"]);
    expect(b!.records({ since: 1 }).map((r) => r.seq)).toEqual([2]);
  });
});

describe("staging", () => {
  it("concurrent nonces never mix, and each record carries its nonce", async () => {
    const m = await mock();
    const nonces = Array.from({ length: 40 }, () => newNonce());
    for (const n of nonces) {
      m.stage({ match: { nonce: n }, reply: { body: { json: { echo: n } } } });
    }
    const replies = await Promise.all(
      nonces.map(async (n) =>
        readJson(await postJson(m.url, "/v1/chat/completions", chat(`probe ${n}`))),
      ),
    );
    expect(replies.map((r) => r.echo)).toEqual(nonces);
    for (const n of nonces) {
      const [record] = m.records({ nonce: n });
      expect(record?.reply).toMatchObject({ status: 200, staged: true });
    }
  });

  it("a sequence 503, 503, 200 per nonce, every attempt recorded; 429 with Retry-After", async () => {
    const m = await mock();
    const n = newNonce();
    m.stage({ match: { nonce: n }, sequence: [{ status: 503 }, { status: 503 }, { status: 200 }] });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await postJson(m.url, "/v1/messages", {
        model: "c",
        max_tokens: 1,
        messages: [{ role: "user", content: n }],
      });
      statuses.push(res.status);
      if (i === 0) expect((await readJson(res)).error.type).toBe("api_error");
      else await res.text();
    }
    // The fourth is past the sequence: the default reply again.
    expect(statuses).toEqual([503, 503, 200, 200]);
    expect(m.records({ nonce: n }).map((r) => [r.reply.status, r.reply.staged])).toEqual([
      [503, true],
      [503, true],
      [200, true],
      [200, false],
    ]);
    m.stage({
      match: { model: "rl" },
      times: 2,
      reply: { status: 429, headers: { "retry-after": "7" } },
    });
    const limited = await postJson(m.url, "/v1/chat/completions", chat("x", { model: "rl" }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect((await readJson(limited)).error.code).toBe("rate_limit_exceeded");
  });

  it("the most specific spec wins, 'always' stays until reset, bad specs throw MockError", async () => {
    const m = await mock();
    const n = newNonce();
    m.stage({ match: { path: "/v1/chat/completions" }, times: "always", reply: { status: 500 } });
    m.stage({ match: { nonce: n }, reply: { status: 201, body: { json: { nonce: true } } } });
    expect((await postJson(m.url, "/v1/chat/completions", chat(n))).status).toBe(201);
    expect((await postJson(m.url, "/v1/chat/completions", chat(n))).status).toBe(500);
    expect((await postJson(m.url, "/v1/chat/completions", chat("other"))).status).toBe(500);
    m.reset();
    expect((await postJson(m.url, "/v1/chat/completions", chat("other"))).status).toBe(200);
    expect(() => m.stage({ reply: { wire: { chunks: { every: 0 } } } })).toThrow(MockError);
    expect(() => m.stage({ reply: { wire: { chunks: { every: 0 } } } })).toThrow(
      /reply\.wire\.chunks\.every/,
    );
  });

  it("a staged canonical reply is rendered in the dialect of the path it came in on", async () => {
    const m = await mock();
    const canonical = {
      parts: [
        { type: "text", text: "Paris." },
        { type: "tool-call", id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
      ],
      stopReason: "tool_calls",
    };
    m.stage({ times: "always", reply: { body: { canonical } } });
    const chatReply = await readJson(await postJson(m.url, "/v1/chat/completions", chat("a")));
    expect(chatReply.choices[0].message.tool_calls[0]).toMatchObject({
      id: "call_1",
      function: { arguments: '{"q":"x"}' },
    });
    expect(chatReply.choices[0].finish_reason).toBe("tool_calls");
    const anthropic = await readJson(
      await postJson(m.url, "/v1/messages", { model: "c", max_tokens: 1, messages: [] }),
    );
    expect(anthropic.stop_reason).toBe("tool_use");
    expect(anthropic.content[1]).toMatchObject({
      type: "tool_use",
      id: "call_1",
      input: { q: "x" },
    });
  });
});

describe("personas", () => {
  it("judge after recording and before staging; the record names persona and rule", async () => {
    const m = await mock({ persona: "anthropic" });
    m.stage({ times: "always", reply: { status: 201 } });
    const rejected = await postJson(m.url, "/v1/messages", { model: "c", messages: [] });
    expect(rejected.status).toBe(400);
    expect((await readJson(rejected)).error.message).toMatch(/max_tokens/);
    const passed = await postJson(m.url, "/v1/messages", {
      model: "c",
      max_tokens: 4,
      messages: [],
    });
    expect(passed.status).toBe(201);
    await passed.text();
    const [first, second] = m.records().map((r) => r.reply);
    expect(first).toMatchObject({
      status: 400,
      staged: false,
      persona: "anthropic",
      personaRule: "anthropic/max-tokens-required",
    });
    expect(second).toMatchObject({
      status: 201,
      staged: true,
      stagedId: "stage-1",
      persona: "anthropic",
    });
    expect(second?.personaRule).toBeUndefined();
    await expect(startMock({ persona: "nope" })).rejects.toThrow(MockError);
  });
});

describe("a client that goes away", () => {
  it("mid-body: the request is still recorded, with the bytes that arrived", async () => {
    const m = await mock();
    const { port } = new URL(m.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const part = '{"model":"gpt-4o-mini","messages":[';
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n${part}`,
    );
    // Let the head and the first bytes reach the mock before the connection goes.
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    for (let i = 0; i < 100 && m.records().length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [record] = m.records();
    expect(record).toMatchObject({
      request: { path: "/v1/chat/completions", body: { data: part, encoding: "utf8" } },
      bodyBytes: part.length,
    });
    expect(record?.reply.reason).toBe("malformed-json");
  });
});
