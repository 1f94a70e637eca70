/**
 * Streams and faults as a raw `node:net` client sees them: exact bytes, one HTTP chunk per
 * server write, how the connection ended, and when each chunk arrived.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockHandle, startMock } from "./index.ts";
import { type RawExchange, rawRequest } from "./test-helpers.ts";

let m: MockHandle;
beforeAll(async () => {
  m = await startMock({ name: "wire" });
});
afterAll(() => m.close());
beforeEach(() => m.reset());

const CHAT = { model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "hi" }] };
const MESSAGES = { model: "claude-sonnet-4-20250514", max_tokens: 9, stream: true, messages: [] };

function send(path: string, spec: unknown, body: unknown = CHAT, headers = {}, timeoutMs?: number) {
  m.stage(spec);
  return rawRequest(m.url, { path, body: JSON.stringify(body), headers }, timeoutMs);
}

const text = (x: RawExchange) => x.body.toString("utf8");

describe("chunk plans", () => {
  const sse = [
    { data: { a: 1 } },
    { event: "e", data: "two\nlines" },
    { comment: "keep" },
    { data: "[DONE]" },
  ];
  const wireText =
    'data: {"a":1}\n\nevent: e\ndata: two\ndata: lines\n\n: keep\n\ndata: [DONE]\n\n';

  it("one write per event by default, bytes exact", async () => {
    const x = await send("/v1/chat/completions", { reply: { body: { sse } } });
    expect(x.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(text(x)).toBe(wireText);
    expect(x.chunks.map((c) => c.toString())).toEqual([
      'data: {"a":1}\n\n',
      "event: e\ndata: two\ndata: lines\n\n",
      ": keep\n\n",
      "data: [DONE]\n\n",
    ]);
    expect(x.end).toBe("complete");
  });

  it("every N bytes", async () => {
    const x = await send("/v1/chat/completions", {
      reply: { body: { sse }, wire: { chunks: { every: 7 } } },
    });
    expect(text(x)).toBe(wireText);
    expect(x.chunks.slice(0, -1).every((c) => c.length === 7)).toBe(true);
    expect(x.chunks.at(-1)!.length).toBeLessThanOrEqual(7);
  });

  it("at offsets, inside a multi-byte character and inside a data: line", async () => {
    const body = 'data: {"t":"né"}\n\ndata: {"t":"second line"}\n\n';
    const x = await send("/v1/chat/completions", {
      reply: {
        body: { raw: body },
        wire: {
          chunks: { at: [{ inside: "utf8-char" }, { inside: "data-line", nth: 2 }, 3] },
          transfer: "chunked",
        },
      },
    });
    expect(text(x)).toBe(body);
    const bytes = Buffer.from(body);
    const e = bytes.indexOf(0xc3);
    const second = bytes.indexOf("data:", 5);
    expect(x.chunks.map((c) => c.length)).toEqual([
      3,
      e + 1 - 3,
      second + 12 - e - 1,
      bytes.length - second - 12,
    ]);
    expect(x.chunks[1]!.at(-1)).toBe(0xc3);
    expect(x.chunks[1]!.toString("utf8")).toContain("\ufffd");
    expect(x.chunks[2]!.toString("latin1").startsWith("\xa9")).toBe(true);
  });

  it("delays before the first byte and before each write; keep-alives between events", async () => {
    const x = await send("/v1/chat/completions", {
      reply: {
        body: { sse: [{ data: "1" }, { data: "2" }, { data: "3" }] },
        wire: { firstByteDelayMs: 150, writeDelayMs: 80, keepAlive: { every: 1 } },
      },
    });
    expect(text(x)).toBe("data: 1\n\n: keep-alive\n\ndata: 2\n\n: keep-alive\n\ndata: 3\n\n");
    expect(x.chunkTimes[0]).toBeGreaterThanOrEqual(140);
    for (let i = 1; i < x.chunkTimes.length; i++) {
      expect(x.chunkTimes[i]! - x.chunkTimes[i - 1]!).toBeGreaterThanOrEqual(40);
    }
  });

  it("frames replay with their own boundaries and delays (the replay entry point)", async () => {
    const frames = [
      { data: 'data: {"x"' },
      { data: ":1}\n\n", delayMs: 100 },
      { data: Buffer.from("data: é\n\n").toString("base64"), encoding: "base64" },
    ];
    const x = await send("/v1/chat/completions", {
      reply: { body: { frames }, headers: { "content-type": "text/event-stream" } },
    });
    expect(x.chunks.map((c) => c.toString())).toEqual(['data: {"x"', ":1}\n\n", "data: é\n\n"]);
    // Arrival gaps can shrink when the first chunk is late; the server-side gap is 100 ms.
    expect(x.chunkTimes[1]! - x.chunkTimes[0]!).toBeGreaterThanOrEqual(50);
  });
});

describe("stream endings and faults", () => {
  it("EOF without the terminal event still closes cleanly", async () => {
    const x = await send("/v1/chat/completions", {
      reply: {
        body: {
          canonical: { parts: [{ type: "text", text: "hi" }] },
          plan: { omitTerminal: true },
        },
      },
    });
    expect(x.end).toBe("complete");
    expect(text(x)).not.toContain("[DONE]");
    expect(text(x)).toContain('"finish_reason":"stop"');
  });

  it("a socket reset mid-event", async () => {
    const x = await send("/v1/chat/completions", {
      reply: { wire: { end: "reset", endAfterBytes: 40 } },
    });
    expect(x.end).toBe("reset");
    expect(x.body.length).toBe(40);
    expect(x.terminated).toBe(false);
  });

  it("close mid-body: fewer bytes than content-length, then a clean FIN", async () => {
    const x = await send(
      "/v1/chat/completions",
      { reply: { fault: "close-mid-body" } },
      { ...CHAT, stream: false },
    );
    expect(x.end).toBe("closed");
    expect(x.body.length).toBe(Math.floor(Number(x.headers.get("content-length")) / 2));
  });

  it("reset before any byte, and a hang that never answers", async () => {
    const reset = await send("/v1/chat/completions", { reply: { fault: "reset-before-headers" } });
    expect([reset.end, reset.head]).toEqual(["reset", ""]);
    const hang = await send("/v1/chat/completions", { reply: { fault: "hang" } }, CHAT, {}, 400);
    expect([hang.end, hang.head]).toEqual(["timeout", ""]);
    expect(m.records().map((r) => r.reply.status)).toEqual([200, 200]);
  });

  it("a malformed HTTP chunk", async () => {
    const x = await send("/v1/chat/completions", { reply: { fault: "malformed-chunk" } });
    expect(x.terminated).toBe(false);
    expect(x.end).toBe("closed");
    expect(x.chunks.length).toBeGreaterThan(0);
  });

  it("an error event mid-stream in the dialect's own shape", async () => {
    const x = await send(
      "/v1/messages",
      {
        reply: {
          body: {
            canonical: { parts: [{ type: "text", text: "partial answer" }] },
            plan: {
              textChunkSize: 4,
              errorAfter: { afterEvents: 4, message: "Overloaded", type: "overloaded_error" },
            },
          },
        },
      },
      MESSAGES,
    );
    expect(x.status).toBe(200);
    const events = text(x).trimEnd().split("\n\n");
    expect(events).toHaveLength(5);
    expect(events.at(-1)).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    );
  });
});

describe("status and error-body faults", () => {
  it("gzip only when accept-encoding allows, on success and error bodies", async () => {
    for (const status of [200, 500]) {
      const spec = { reply: { status, wire: { gzip: "if-accepted" } } };
      const plain = await send("/v1/chat/completions", spec, { ...CHAT, stream: false });
      const zipped = await send(
        "/v1/chat/completions",
        spec,
        { ...CHAT, stream: false },
        { "accept-encoding": "gzip, br" },
      );
      expect(plain.headers.get("content-encoding")).toBeUndefined();
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(zipped.body).toString()).toBe(text(plain));
      expect(zipped.status).toBe(status);
    }
  });

  it("a gzipped stream keeps one write per event", async () => {
    const x = await send("/v1/chat/completions", {
      reply: { body: { sse: [{ data: "1" }, { data: "2" }] }, wire: { gzip: "always" } },
    });
    expect(x.chunks).toHaveLength(2);
    expect(gunzipSync(x.body).toString()).toBe("data: 1\n\ndata: 2\n\n");
  });

  it("an HTML 502 from a proxy, an empty body, error as a string", async () => {
    const html = await send("/v1/messages", { reply: { fault: "html-502" } }, MESSAGES);
    expect([html.status, html.headers.get("content-type")]).toEqual([502, "text/html"]);
    expect(text(html)).toContain("<center><h1>502 Bad Gateway</h1></center>");
    const empty = await send("/v1/messages", { reply: { status: 500, fault: "empty" } }, MESSAGES);
    expect([empty.status, empty.headers.get("content-length"), empty.body.length]).toEqual([
      500,
      "0",
      0,
    ]);
    const str = await send("/v1/chat/completions", {
      reply: { status: 400, body: { error: { message: "bad", shape: "string" } } },
    });
    expect(text(str)).toBe('{"error":"bad"}');
  });

  it("a slow first byte the caller can time out on", async () => {
    const x = await send(
      "/v1/chat/completions",
      { reply: { wire: { headersDelayMs: 1000 } } },
      CHAT,
      {},
      250,
    );
    expect([x.end, x.head]).toEqual(["timeout", ""]);
  });
});

describe("the five regression fixtures", () => {
  const load = (name: string) =>
    JSON.parse(
      readFileSync(new URL(`./fixtures/regressions/${name}.json`, import.meta.url), "utf8"),
    );
  const bodyFor = (path: string) => (path === "/v1/messages" ? MESSAGES : CHAT);
  const dataOf = (x: RawExchange) =>
    text(x)
      .split("\n\n")
      .filter((e) => e.includes("data:"))
      .map((e) =>
        e
          .split("\n")
          .filter((l) => l.startsWith("data: "))
          .map((l) => l.slice(6))
          .join("\n"),
      );

  it("multi-line data", async () => {
    const f = load("multi-line-data");
    const x = await send(f.path, f.spec, bodyFor(f.path));
    const first = text(x).split("\n\n")[0]!;
    expect(first.split("\n").length).toBeGreaterThan(3);
    expect(first.split("\n").every((l) => l.startsWith("data: "))).toBe(true);
    expect(JSON.parse(dataOf(x)[0]!).object).toBe("chat.completion.chunk");
  });

  it("a UTF-8 character split between reads", async () => {
    const f = load("utf8-split-between-reads");
    const x = await send(f.path, f.spec, bodyFor(f.path));
    expect(x.chunks.length).toBe(3);
    expect(x.chunks[0]!.toString("utf8").endsWith("\ufffd")).toBe(true);
    const joined = dataOf(x)
      .map((d) => JSON.parse(d))
      .flatMap((e) => (e.type === "content_block_delta" ? [e.delta.text] : []))
      .join("");
    expect(joined).toBe("Grüße, 東京 🚀");
  });

  it("interleaved tool-call fragments", async () => {
    const f = load("interleaved-tool-fragments");
    const x = await send(f.path, f.spec, bodyFor(f.path));
    const calls = dataOf(x)
      .filter((d) => d !== "[DONE]")
      .flatMap((d) => JSON.parse(d).choices[0]?.delta?.tool_calls ?? []);
    const order = calls.map((c: { index: number }) => c.index);
    expect(order.slice(0, 4)).toEqual([0, 1, 0, 1]);
    const args = [0, 1].map((i) =>
      calls
        .filter((c: { index: number }) => c.index === i)
        .map((c: { function: { arguments: string } }) => c.function.arguments)
        .join(""),
    );
    expect(args).toEqual(['{"city":"Paris"}', '{"city":"Oslo"}']);
  });

  it("EOF without a completion event", async () => {
    const f = load("eof-without-completion");
    const x = await send(f.path, f.spec, bodyFor(f.path));
    expect(x.end).toBe("complete");
    expect(text(x)).toContain("event: message_delta");
    expect(text(x)).not.toContain("message_stop");
  });

  it("usage after text", async () => {
    const f = load("usage-after-text");
    const x = await send(f.path, f.spec, bodyFor(f.path));
    const chunks = dataOf(x)
      .filter((d) => d !== "[DONE]")
      .map((d) => JSON.parse(d));
    const last = chunks.at(-1);
    expect(last).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
    });
    const textAt = chunks.findIndex((c) => c.choices[0]?.delta?.content === "Hello");
    expect(textAt).toBeGreaterThanOrEqual(0);
    expect(textAt).toBeLessThan(chunks.length - 1);
    expect(dataOf(x).at(-1)).toBe("[DONE]");
  });
});
