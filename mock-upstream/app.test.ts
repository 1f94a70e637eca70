import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Dialect } from "../dialects/dialect.ts";
import { createMockApp, createMockState } from "./app.ts";
import type { MockRecord } from "./record.ts";
import { readJson } from "./test-helpers.ts";

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`./fixtures/provider-docs/${name}.json`, import.meta.url), "utf8"),
  );

/** Every JSON path of a value with the type found there; array items collapse to `[]`. */
function shape(value: unknown, path = "$", out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    out.set(path, "array");
    for (const item of value) shape(item, `${path}[]`, out);
  } else if (value !== null && typeof value === "object") {
    out.set(path, "object");
    for (const [k, v] of Object.entries(value)) shape(v, `${path}.${k}`, out);
  } else {
    out.set(path, value === null ? "null" : typeof value);
  }
  return out;
}

function post(app: ReturnType<typeof createMockApp>, path: string, body: unknown, headers = {}) {
  return app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const GENERATE: Record<Dialect, { path: string; body: Record<string, unknown> }> = {
  "openai-chat": { path: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [] } },
  "openai-responses": { path: "/v1/responses", body: { model: "gpt-4.1", input: "hi" } },
  "anthropic-messages": {
    path: "/v1/messages",
    body: { model: "claude-sonnet-4-20250514", max_tokens: 16, messages: [] },
  },
  gemini: { path: "/v1beta/models/gemini-2.0-flash:generateContent", body: { contents: [] } },
  ollama: { path: "/api/chat", body: { model: "llama3.2", messages: [], stream: false } },
};

describe("default replies match the providers' documented shapes", () => {
  for (const [dialect, { path, body }] of Object.entries(GENERATE)) {
    it(`${dialect}: every field is one the provider documents, with its type`, async () => {
      const app = createMockApp();
      const res = await post(app, path, body);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const doc = shape(fixture(dialect).example);
      const ours = shape(await readJson(res));
      const foreign = [...ours].filter(
        ([p, t]) => doc.get(p) !== t && !(doc.get(p) && t === "null"),
      );
      expect(foreign).toEqual([]);
      // The fields every client reads are there (not just "nothing extra").
      const core = [...doc.keys()].filter((p) =>
        /\.(id|object|type|role|model|content|text|finish_reason|finishReason|stop_reason|done|status|usage|candidates|output|message|choices)$/.test(
          p,
        ),
      );
      // Responses' top-level `text` is the format config echoed back, not content.
      const missing = core.filter((p) => !ours.has(p) && !p.startsWith("$.text"));
      expect(missing).toEqual([]);
    });
  }

  it("openai-chat stream: chunk objects as documented, usage only when include_usage asks, [DONE] last", async () => {
    const app = createMockApp();
    const plain = await (
      await post(app, "/v1/chat/completions", { model: "m", stream: true, messages: [] })
    ).text();
    const data = plain
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => l.slice(6));
    expect(data.at(-1)).toBe("[DONE]");
    const docChunk = shape(JSON.parse(fixture("openai-chat").streamEvents[1]));
    for (const d of data.slice(0, -1)) {
      const chunk = JSON.parse(d);
      expect(chunk.object).toBe("chat.completion.chunk");
      expect(chunk.usage).toBeUndefined();
      expect(shape(chunk).get("$.choices[].delta")).toBe(docChunk.get("$.choices[].delta"));
    }
    const withUsage = await (
      await post(app, "/v1/chat/completions", {
        model: "m",
        stream: true,
        stream_options: { include_usage: true },
        messages: [],
      })
    ).text();
    const last =
      withUsage
        .split("\n")
        .filter((l) => l.startsWith("data: {"))
        .at(-1) ?? "";
    expect(JSON.parse(last.slice(6))).toMatchObject({ choices: [], usage: { total_tokens: 21 } });
  });

  for (const dialect of ["anthropic-messages", "openai-responses"] as const) {
    it(`${dialect} stream: the documented event sequence`, async () => {
      const app = createMockApp();
      const { path, body } = GENERATE[dialect];
      const res = await post(app, path, { ...body, stream: true });
      expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      const names = (await res.text())
        .split("\n")
        .filter((l) => l.startsWith("event: "))
        .map((l) => l.slice(7));
      const distinct = names.filter((n, i) => n !== names[i - 1]);
      expect(distinct).toEqual(fixture(dialect).streamEventNames);
    });
  }

  it("ollama streams NDJSON by default, ending with done: true", async () => {
    const app = createMockApp();
    const res = await post(app, "/api/chat", { model: "llama3.2", messages: [] });
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (await res.text())
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const doc = fixture("ollama").streamExample;
    expect(lines.slice(0, -1).every((l) => l.done === false)).toBe(true);
    expect(Object.keys(lines.at(-1)).sort()).toEqual(expect.arrayContaining(Object.keys(doc[0])));
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: "stop" });
  });

  it("gemini streams only through streamGenerateContent", async () => {
    const app = createMockApp();
    const res = await post(app, "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse", {
      contents: [],
    });
    const events = (await res.text()).split("\n\n").filter(Boolean);
    expect(events.length).toBeGreaterThan(1);
    expect(JSON.parse(events.at(-1)!.slice(6)).candidates[0].finishReason).toBe("STOP");
  });
});

describe("routes", () => {
  it("serves chat un-versioned and under a prefix", async () => {
    const app = createMockApp({ prefix: "/api/v1" });
    for (const path of [
      "/chat/completions",
      "/api/v1/chat/completions",
      "/api/v1/v1/chat/completions",
    ]) {
      const res = await post(app, path, GENERATE["openai-chat"].body);
      expect(res.status, path).toBe(200);
    }
  });

  it("GET /v1/models answers OpenAI or Anthropic shape by headers", async () => {
    const app = createMockApp();
    const openai = await readJson(
      await app.request("/v1/models", { headers: { authorization: "Bearer x" } }),
    );
    expect(openai.object).toBe("list");
    expect(openai.data[0].object).toBe("model");
    const anthropic = await readJson(
      await app.request("/v1/models", {
        headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
      }),
    );
    expect(anthropic.data[0].type).toBe("model");
    expect(anthropic.has_more).toBe(false);
    expect((await readJson(await app.request("/v1beta/models"))).models[0].name).toMatch(
      /^models\//,
    );
    expect((await readJson(await app.request("/api/tags"))).models[0].details.format).toBe("gguf");
  });

  it("records an unknown path and answers 404 in the caller's dialect", async () => {
    const state = createMockState();
    const app = createMockApp({}, state);
    const res = await post(app, "/v1/v1/chat/completions", GENERATE["openai-chat"].body);
    expect(res.status).toBe(404);
    expect(await readJson(res)).toEqual({
      error: {
        message: "Invalid URL (POST /v1/v1/chat/completions)",
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    });
    const anthropic = await post(app, "/v2/messages", {}, { "anthropic-version": "2023-06-01" });
    expect((await readJson(anthropic)).type).toBe("error");
    const records = state.recorder.list();
    expect(records.map((r) => [r.request.path, r.kind, r.reply.status, r.reply.reason])).toEqual([
      ["/v1/v1/chat/completions", "unknown", 404, "unknown-route"],
      ["/v2/messages", "unknown", 404, "unknown-route"],
    ]);
  });
});

describe("malformed input is recorded and answered in the dialect's shape", () => {
  const corpus: {
    name: string;
    path: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
    status: number;
    reason: string;
  }[] = [
    {
      name: "non-JSON",
      path: "/v1/chat/completions",
      body: "hello",
      status: 400,
      reason: "malformed-json",
    },
    {
      name: "truncated JSON",
      path: "/v1/messages",
      body: '{"model":"c","messages":[{"role":',
      status: 400,
      reason: "malformed-json",
    },
    { name: "empty body", path: "/v1/responses", body: "", status: 400, reason: "empty-body" },
    {
      name: "wrong content-type",
      path: "/v1/chat/completions",
      body: "{}",
      headers: { "content-type": "text/plain" },
      status: 400,
      reason: "wrong-content-type",
    },
    {
      name: "JSON array",
      path: "/v1/chat/completions",
      body: "[1,2]",
      status: 400,
      reason: "body-not-object",
    },
    {
      name: "not UTF-8",
      path: "/v1beta/models/g:generateContent",
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      status: 400,
      reason: "malformed-json",
    },
    {
      name: "over the limit",
      path: "/v1/chat/completions",
      body: `{"x":"${"a".repeat(300)}"}`,
      status: 413,
      reason: "body-too-large",
    },
    { name: "GET on generate", path: "/v1/messages", status: 405, reason: "method-not-allowed" },
  ];
  for (const c of corpus) {
    it(c.name, async () => {
      const state = createMockState({ bodyLimitBytes: 256 });
      const app = createMockApp({}, state);
      const res = await app.request(c.path, {
        method: c.body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json", ...c.headers },
        ...(c.body === undefined ? {} : { body: c.body }),
      });
      expect(res.status).toBe(c.status);
      const body = await readJson(res);
      const message = body.error?.message ?? body.error;
      expect(typeof message).toBe("string");
      const [record] = state.recorder.list() as [MockRecord];
      expect(record.reply).toMatchObject({ status: c.status, reason: c.reason });
      if (Buffer.isBuffer(c.body)) {
        expect(record.request.body.encoding).toBe("base64");
        expect(Buffer.from(record.request.body.data, "base64")).toEqual(c.body);
      } else if (c.status === 413) {
        expect(record).toMatchObject({
          bodyTruncated: true,
          request: { body: { data: "", encoding: "utf8" } },
          bodyBytes: Buffer.byteLength(c.body ?? ""),
        });
      } else {
        expect(record.request.body.data).toBe(c.body ?? "");
      }
    });
  }
});

describe("content type", () => {
  it("Ollama's chat takes a JSON body whatever its content type, as Ollama's own server does", async () => {
    // LiteLLM's ollama_chat provider posts its JSON as application/octet-stream.
    const state = createMockState();
    const app = createMockApp({}, state);
    const res = await app.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: JSON.stringify({
        model: "m",
        stream: false,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(res.status).toBe(200);
    expect((await readJson(res)).done).toBe(true);
  });
});

describe("control API", () => {
  it("refuses a malformed staged reply with a 400 that names the path", async () => {
    const app = createMockApp();
    const bad = await post(app, "/__gatecheck/replies", {
      match: { nonce: "gc-1" },
      sequence: [{ status: 200 }, { status: "x" }],
    });
    expect(bad.status).toBe(400);
    expect((await readJson(bad)).error).toMatch(/sequence\[1\]\.status: .*number/);
    const both = await post(app, "/__gatecheck/replies", { reply: {}, sequence: [{}] });
    expect((await readJson(both)).error).toMatch(/exactly one of `reply` or `sequence`/);
    const header = await post(app, "/__gatecheck/replies", {
      reply: { headers: { "x-a": "1\r\nx-b: 2" } },
    });
    expect((await readJson(header)).error).toMatch(
      /reply\.headers\.x-a: header values cannot contain CR/,
    );
    const notJson = await post(app, "/__gatecheck/replies", "{");
    expect((await readJson(notJson)).error).toMatch(/not JSON/);
    const plan = await post(app, "/__gatecheck/replies", {
      reply: {
        body: {
          canonical: { parts: [{ type: "text", text: "abc" }] },
          plan: { textChunks: [["ab"]] },
        },
      },
    });
    expect(plan.status).toBe(400);
    expect((await readJson(plan)).error).toMatch(/reply\.body: .*chunks join to "ab"/);
    // The check's outcome is remembered per body: the same refusal again, in a sequence's
    // place this time, and a body that renders is still taken.
    const again = await post(app, "/__gatecheck/replies", {
      sequence: [
        {
          body: {
            canonical: { parts: [{ type: "text", text: "abc" }] },
            plan: { textChunks: [["ab"]] },
          },
        },
      ],
    });
    expect((await readJson(again)).error).toMatch(/sequence\[0\]\.body: .*chunks join to "ab"/);
    const fine = await post(app, "/__gatecheck/replies", {
      reply: {
        body: {
          canonical: { parts: [{ type: "text", text: "abc" }] },
          plan: { textChunks: [["ab", "c"]] },
        },
      },
    });
    expect(fine.status).toBe(201);
  });

  it("is never recorded; reset clears records and staged replies", async () => {
    const state = createMockState();
    const app = createMockApp({}, state);
    await post(app, "/__gatecheck/replies", { reply: { status: 503 }, times: "always" });
    await post(app, "/v1/chat/completions", GENERATE["openai-chat"].body);
    const health = await readJson(await app.request("/__gatecheck/health"));
    expect(health).toMatchObject({ ok: true, records: 1, staged: 1 });
    const records = await readJson(await app.request("/__gatecheck/records?since=0"));
    expect(records.records.map((r: MockRecord) => r.request.path)).toEqual([
      "/v1/chat/completions",
    ]);
    expect((await app.request("/__gatecheck/records?since=x")).status).toBe(400);
    await app.request("/__gatecheck/reset", { method: "POST" });
    expect(await readJson(await app.request("/__gatecheck/health"))).toMatchObject({
      records: 0,
      staged: 0,
    });
  });
});
