import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { ClientDialect, Mode } from "../../dialects/dialect.ts";
import { sdkView } from "./sdk-view.ts";

const dialectFixture = (dialect: string, name: string) =>
  readFileSync(new URL(`../../dialects/${dialect}/fixtures/${name}`, import.meta.url));
const ownFixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const SSE: [string, string][] = [["content-type", "text/event-stream"]];
const JSON_TYPE: [string, string][] = [["content-type", "application/json"]];

const view = (client: ClientDialect, mode: Mode, body: Buffer, status = 200) =>
  sdkView(client, mode, { status, headers: mode === "stream" ? SSE : JSON_TYPE, body });

/** A stream cut just before `marker`: the terminal events never arrive. */
function cutBefore(body: Buffer, marker: string): Buffer {
  const text = body.toString("utf8");
  const at = text.indexOf(marker);
  expect(at).toBeGreaterThan(0);
  return Buffer.from(text.slice(0, at));
}

describe("sdkView: good replies as the SDKs assemble them", () => {
  it("openai chat stream: two parallel tool calls with parsed arguments", async () => {
    const v = await view(
      "openai-chat",
      "stream",
      dialectFixture("openai-chat", "stream-parallel-tools-usage.sse"),
    );
    expect(v.accepted).toBe(true);
    expect(v.stopReason).toBe("tool_calls");
    expect(v.toolCalls?.map((c) => [c.id, c.name, c.arguments, c.argumentsParsed])).toEqual([
      ["call_DdmO9pD3xa9XTPNJ32zg2hcA", "get_weather", { location: "Paris" }, true],
      ["call_ABCDEF0123456789abcdefgh", "get_weather", { location: "Bogotá" }, true],
    ]);
  });

  it("openai chat non-stream: tool call", async () => {
    const v = await view(
      "openai-chat",
      "non-stream",
      dialectFixture("openai-chat", "reply-tool-calls.json"),
    );
    expect(v).toMatchObject({ accepted: true, stopReason: "tool_calls" });
    expect(v.toolCalls?.[0]?.arguments).toEqual({ location: "Boston, MA" });
  });

  it("openai responses stream and an incomplete non-stream reply", async () => {
    const s = await view(
      "openai-responses",
      "stream",
      dialectFixture("openai-responses", "stream-tool-call.sse"),
    );
    expect(s).toMatchObject({ accepted: true, stopReason: "completed" });
    expect(s.toolCalls?.[0]).toMatchObject({
      name: "get_weather",
      arguments: { city: "Beijing" },
      argumentsParsed: true,
    });
    const n = await view(
      "openai-responses",
      "non-stream",
      dialectFixture("openai-responses", "reply-incomplete.json"),
    );
    expect(n).toMatchObject({ accepted: true, stopReason: "incomplete/max_output_tokens" });
  });

  it("anthropic stream: text and a tool call with empty input; non-stream with thinking", async () => {
    const s = await view(
      "anthropic-messages",
      "stream",
      dialectFixture("anthropic-messages", "stream-tool-no-args.sse"),
    );
    expect(s).toMatchObject({
      accepted: true,
      stopReason: "tool_use",
      text: "I'll update the issue list for you.",
    });
    expect(s.toolCalls).toEqual([
      {
        id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP",
        name: "updateIssueList",
        arguments: {},
        argumentsParsed: true,
      },
    ]);
    const n = await view(
      "anthropic-messages",
      "non-stream",
      dialectFixture("anthropic-messages", "reply-thinking-tool.json"),
    );
    expect(n.toolCalls?.[0]?.arguments).toEqual({ location: "Paris, France", unit: "celsius" });
  });
});

describe("sdkView: what the SDKs refuse or cannot parse", () => {
  it("error bodies are not accepted, and the SDK's message is kept", async () => {
    const oc = await view(
      "openai-chat",
      "non-stream",
      dialectFixture("openai-chat", "error-invalid-key.json"),
      401,
    );
    expect(oc.accepted).toBe(false);
    expect(oc.error).toMatch(/^AuthenticationError: 401 Incorrect API key provided/);
    const am = await view(
      "anthropic-messages",
      "non-stream",
      dialectFixture("anthropic-messages", "error-overloaded.json"),
      529,
    );
    expect(am.accepted).toBe(false);
    expect(am.error).toMatch(/529/);
    expect(am.error).toMatch(/Overloaded/);
  });

  it("truncated streams: chat and messages helpers refuse them", async () => {
    const chat = dialectFixture("openai-chat", "stream-parallel-tools-usage.sse");
    const oc = await view(
      "openai-chat",
      "stream",
      cutBefore(chat, '"finish_reason":"tool_calls"').subarray(0, -200),
    );
    expect(oc).toMatchObject({ accepted: false });
    expect(oc.error).toMatch(/finish_reason/);
    const am = await view(
      "anthropic-messages",
      "stream",
      cutBefore(dialectFixture("anthropic-messages", "stream-text.sse"), "event: message_delta"),
    );
    expect(am.accepted).toBe(false);
    expect(am.error).toMatch(/stream ended/);
  });

  it("a responses stream cut before response.completed is accepted as in_progress: the stop reason tells", async () => {
    const body = cutBefore(
      dialectFixture("openai-responses", "stream-tool-call.sse"),
      "event: response.completed",
    );
    const v = await view("openai-responses", "stream", body);
    expect(v).toMatchObject({ accepted: true, stopReason: "in_progress" });
  });

  it("malformed tool arguments: parsed by the agent (openai) or by the stream helper (anthropic), both fail", async () => {
    const oc = await view(
      "openai-chat",
      "non-stream",
      ownFixture("openai-chat-reply-tool-malformed-json.json"),
    );
    expect(oc.accepted).toBe(true);
    expect(oc.toolCalls?.[0]).toMatchObject({
      id: "call_abc123",
      arguments: undefined,
      argumentsParsed: false,
    });
    // The Messages stream helper parses the fragments itself and rejects the whole message.
    const am = await view(
      "anthropic-messages",
      "stream",
      ownFixture("anthropic-stream-tool-malformed-json.sse"),
    );
    expect(am.accepted).toBe(false);
    expect(am.error).toMatch(/JSON at position/);
  });

  it("truncated tool JSON in a Messages stream is completed silently by the helper's partial parser", async () => {
    const malformed = ownFixture("anthropic-stream-tool-malformed-json.sse").toString("utf8");
    const cut = Buffer.from(malformed.replace("[1, 2]}}", "[1, 2"));
    const am = await view("anthropic-messages", "stream", cut);
    expect(am.accepted).toBe(true);
    expect(am.toolCalls?.[0]).toMatchObject({
      // `[1, 2` arrives as [1]: the trailing number might be cut, so the parser drops it.
      arguments: { issues: [1] },
      argumentsParsed: true,
    });
  });

  it("content-encoding is undone as fetch would; bytes that claim gzip but are not are refused", async () => {
    const body = dialectFixture("openai-chat", "reply-tool-calls.json");
    const headers: [string, string][] = [...JSON_TYPE, ["Content-Encoding", "gzip"]];
    const ok = await sdkView("openai-chat", "non-stream", {
      status: 200,
      headers,
      body: gzipSync(body),
    });
    expect(ok).toMatchObject({ accepted: true, stopReason: "tool_calls" });
    const bad = await sdkView("openai-chat", "non-stream", { status: 200, headers, body });
    expect(bad.accepted).toBe(false);
    expect(bad.error).toMatch(/claims gzip but does not decode/);
  });

  it("a non-JSON 200 body on a non-stream call is not a reply", async () => {
    const v = await view("openai-chat", "non-stream", Buffer.from("<html>proxy error</html>"));
    expect(v.accepted).toBe(false);
  });
});

describe("sdkView: one shared client per SDK", () => {
  it("concurrent views each get their own recorded bytes", async () => {
    const cases = [
      () =>
        view(
          "openai-chat",
          "stream",
          dialectFixture("openai-chat", "stream-parallel-tools-usage.sse"),
        ),
      () =>
        view(
          "openai-chat",
          "non-stream",
          dialectFixture("openai-chat", "error-invalid-key.json"),
          401,
        ),
      () =>
        view(
          "anthropic-messages",
          "non-stream",
          dialectFixture("anthropic-messages", "reply-thinking-tool.json"),
        ),
      () =>
        view(
          "openai-responses",
          "stream",
          dialectFixture("openai-responses", "stream-tool-call.sse"),
        ),
    ];
    const alone: Awaited<ReturnType<typeof sdkView>>[] = [];
    for (const run of cases) alone.push(await run());
    expect(new Set(alone.map((v) => JSON.stringify(v))).size).toBe(cases.length);
    const together = await Promise.all(
      Array.from({ length: 24 }, (_, i) => cases[i % cases.length]?.()),
    );
    expect(together).toEqual(Array.from({ length: 24 }, (_, i) => alone[i % cases.length]));
  });
});
