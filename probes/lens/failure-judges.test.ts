import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { type ExchangeInput, parseExchange } from "../exchange.ts";
import { judgeField } from "./judge-exchange.ts";

const request = {
  path: "/v1/chat/completions",
  headers: { "content-type": "application/json" },
  body: { model: "m", messages: [{ role: "user", content: "gc-0123456789abcdef hi" }] },
};
const forward = { path: "/v1/chat/completions", body: request.body };
const json = { "content-type": "application/json" };

const errorBody = (message: string) => JSON.stringify({ error: { message, type: "api_error" } });
const answer = (text: string) =>
  JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
  });

function exchange(over: Partial<ExchangeInput>, mode: "stream" | "non-stream" = "non-stream") {
  return parseExchange({
    route: { client: "openai-chat", backend: "openai-chat" },
    mode,
    clientRequest: request,
    forwarded: [forward],
    ...over,
  });
}

/** Upstream `status` with `message`; the client gets `client`. */
function failed(status: number, message: string, client: ExchangeInput["clientResponse"]) {
  return exchange({
    upstreamReply: { status, headers: json, body: errorBody(message) },
    clientResponse: client,
  });
}

describe("failure.status", () => {
  it("fires on a 2xx built from an upstream error (status-relabelled)", () => {
    const v = judgeField(
      failed(503, "down", { status: 200, headers: json, body: answer("down") }),
      "failure.status",
    );
    expect(v).toMatchObject({ verdict: "mangled", cause: "status-relabelled" });
    expect(v.reason).toContain("503 → 200");
  });
  it("keeps a truthful status, and names a class change", () => {
    const same = failed(503, "down", { status: 503, headers: json, body: errorBody("down") });
    expect(judgeField(same, "failure.status").verdict).toBe("preserved");
    const flipped = failed(503, "down", { status: 400, headers: json, body: errorBody("down") });
    expect(judgeField(flipped, "failure.status")).toMatchObject({
      verdict: "mangled",
      cause: "status-class-changed",
    });
  });
});

describe("failure.error_text", () => {
  it("accepts a gateway prefix, and finds a lost or stringified message", () => {
    const msg = "FAILTEXT field x";
    const kept = failed(400, msg, { status: 400, headers: json, body: errorBody(`gw: ${msg}`) });
    expect(judgeField(kept, "failure.error_text").verdict).toBe("preserved");
    const lost = failed(400, msg, { status: 400, headers: json, body: errorBody("Bad request") });
    expect(judgeField(lost, "failure.error_text")).toMatchObject({
      verdict: "dropped",
      cause: "error-text-lost",
    });
    const undef = failed(400, msg, { status: 400, headers: json, body: errorBody("undefined") });
    expect(judgeField(undef, "failure.error_text")).toMatchObject({
      verdict: "mangled",
      cause: "error-object-stringified",
    });
  });
});

describe("failure.gzip", () => {
  it("fires when the client's error body is still gzip, passes when decoded", () => {
    const zipped = gzipSync(Buffer.from(errorBody("FAILGZIP x"))).toString("utf8");
    const garbage = failed(500, "FAILGZIP x", { status: 500, headers: json, body: zipped });
    expect(judgeField(garbage, "failure.gzip")).toMatchObject({
      verdict: "mangled",
      cause: "undecoded-gzip",
    });
    const readable = failed(500, "FAILGZIP x", {
      status: 500,
      headers: json,
      body: errorBody("FAILGZIP x"),
    });
    expect(judgeField(readable, "failure.gzip").verdict).toBe("preserved");
  });
});

describe("failure.stream_end", () => {
  const sse = { "content-type": "text/event-stream" };
  const chunk = (text: string) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: text } }] })}\n\n`;
  const upstream = `${chunk("FAIL")}${chunk("MID")}data: ${errorBody("boom")}\n\n`;
  const end = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`;
  it("fires on a clean end after an upstream error, passes when the error is passed on", () => {
    const clean = exchange(
      {
        upstreamReply: { status: 200, headers: sse, body: upstream },
        clientResponse: {
          status: 200,
          headers: sse,
          body: `${chunk("FAIL")}${chunk("MID")}${end}`,
        },
      },
      "stream",
    );
    expect(judgeField(clean, "failure.stream_end")).toMatchObject({
      verdict: "mangled",
      cause: "clean-end-after-failure",
    });
    const told = exchange(
      {
        upstreamReply: { status: 200, headers: sse, body: upstream },
        clientResponse: { status: 200, headers: sse, body: upstream },
      },
      "stream",
    );
    expect(judgeField(told, "failure.stream_end").verdict).toBe("preserved");
  });
});

/** `statuses.length` forwards of the same request, answered with those statuses. */
function retried(statuses: number[], client: ExchangeInput["clientResponse"], gapMs = 10) {
  const last = statuses.at(-1) ?? 200;
  return exchange({
    forwarded: statuses.map(() => forward),
    upstreamReply: {
      status: last,
      headers: json,
      body: last < 300 ? answer("RETRYPROBE ok") : errorBody("FAILRETRY x"),
    },
    clientResponse: client,
    timing: {
      forwarded: statuses.map((status, i) => ({
        atMs: i * gapMs,
        status,
        ...(status === 429 ? { retryAfter: "1" } : {}),
      })),
      clientTotalMs: statuses.length * gapMs + 5,
    },
  });
}

describe("failure.retries", () => {
  const e400 = { status: 400, headers: json, body: errorBody("FAILRETRY x") };
  it("fires on a retried 400 and on a retry storm", () => {
    expect(judgeField(retried([400, 400, 400], e400), "failure.retries")).toMatchObject({
      verdict: "mangled",
      cause: "retried-non-retryable",
    });
    const storm = retried(Array(12).fill(503), { ...e400, status: 503 });
    expect(judgeField(storm, "failure.retries")).toMatchObject({
      verdict: "mangled",
      cause: "retry-storm",
    });
  });
  it("passes one truthful 400 and a retried success, naming Retry-After spacing", () => {
    expect(judgeField(retried([400], e400), "failure.retries").verdict).toBe("preserved");
    const v = judgeField(
      retried([429, 200], { status: 200, headers: json, body: answer("RETRYPROBE ok") }),
      "failure.retries",
    );
    expect(v.verdict).toBe("preserved");
    expect(v.reason).toContain("Retry-After 1s not honoured (next attempt after 10 ms)");
    const spaced = retried(
      [429, 200],
      { status: 200, headers: json, body: answer("RETRYPROBE ok") },
      1000,
    );
    expect(judgeField(spaced, "failure.retries").reason).toContain("Retry-After 1s honoured");
  });
  it("fires when the final success is lost or relabelled", () => {
    const lost = retried([503, 200], { status: 200, headers: json, body: answer("other") });
    expect(judgeField(lost, "failure.retries")).toMatchObject({
      verdict: "dropped",
      cause: "answer-lost",
    });
    const relabelled = retried([503], { status: 200, headers: json, body: answer("x") });
    expect(judgeField(relabelled, "failure.retries")).toMatchObject({ cause: "status-relabelled" });
  });
});

describe("failure.deadline", () => {
  const slow = (clientTotalMs: number, forwards = 1) =>
    exchange({
      context: { deadlineMs: 8000 },
      forwarded: Array(forwards).fill(forward),
      upstreamReply: { status: 200, headers: json, body: answer("FAILSLOW late") },
      clientResponse: { status: 200, headers: json, body: answer("FAILSLOW late") },
      timing: { forwarded: Array(forwards).fill({ atMs: 0, status: 200 }), clientTotalMs },
    });
  it("fires past the caller's deadline and passes within it", () => {
    const v = judgeField(slow(9500, 4), "failure.deadline");
    expect(v).toMatchObject({ verdict: "mangled", cause: "deadline-exceeded" });
    expect(v.reason).toContain("waited 9500 ms > deadline 8000 ms");
    expect(judgeField(slow(1600), "failure.deadline").verdict).toBe("preserved");
  });
  it("fires on a gateway that never answers (the client gave up past its deadline)", () => {
    const e = slow(10_000, 40);
    delete e.clientResponse;
    const v = judgeField(e, "failure.deadline");
    expect(v).toMatchObject({ verdict: "mangled", cause: "deadline-exceeded" });
    expect(v.reason).toContain("and got no answer; 40 attempt(s)");
  });
  it("is undecided when the sweep recorded no client wait", () => {
    const e = slow(1600);
    delete e.timing?.clientTotalMs;
    expect(judgeField(e, "failure.deadline").verdict).toBe("error");
  });
});

describe("failure.fallback", () => {
  const ok = { status: 200, headers: json, body: answer("RETRYPROBE ok") };
  it("fires when no second target is tried, or the second gets another request", () => {
    const none = retried([503], { status: 503, headers: json, body: errorBody("FAILRETRY x") });
    expect(judgeField(none, "failure.fallback")).toMatchObject({
      verdict: "dropped",
      cause: "no-fallback",
    });
    const hop = retried([503, 200], ok);
    if (!hop.forwarded) throw new Error("no forwards");
    hop.forwarded[1] = {
      ...forward,
      method: "POST",
      headers: [],
      body: { model: "b" },
      rawBody: "{}",
    };
    expect(judgeField(hop, "failure.fallback")).toMatchObject({ cause: "fallback-hop-lost" });
    expect(judgeField(retried([503, 200], ok), "failure.fallback").verdict).toBe("preserved");
  });
});

describe("failure.fallback with declared targets", () => {
  const ok = { status: 200, headers: json, body: answer("RETRYPROBE ok") };
  const e400 = { status: 400, headers: json, body: errorBody("FAILRETRY x") };
  const body = { ...request.body, temperature: 0.3 };
  /** Forwards to hosts `a` (first target) and `b` (second), the context naming both. */
  function targeted(
    hosts: string[],
    statuses: number[],
    client: typeof ok,
    on: number[] | "any-non-2xx",
  ) {
    const e = retried(statuses, client);
    e.context = { fallback: { targets: ["a:1", "b:2"], on } };
    if (e.clientRequest) e.clientRequest.body = body;
    e.forwarded = hosts.map((host) => ({
      method: "POST",
      path: "/v1/chat/completions",
      headers: [["host", host]],
      body,
      rawBody: JSON.stringify(body),
    }));
    return e;
  }
  it("tells a retry of the first target from a move to the second", () => {
    const retriedFirst = targeted(["a:1", "a:1"], [503, 503], { ...e400, status: 503 }, [503]);
    expect(judgeField(retriedFirst, "failure.fallback")).toMatchObject({
      verdict: "dropped",
      cause: "no-fallback",
    });
    const moved = targeted(["a:1", "b:2"], [503, 200], ok, "any-non-2xx");
    const v = judgeField(moved, "failure.fallback");
    expect(v.verdict).toBe("preserved");
    expect(v.reason).toContain("fell back on 503, same request");
  });
  it("follows the configuration: a status it does not name must stay, and may not move", () => {
    const stayed = targeted(["a:1"], [400], e400, [429, 500, 503]);
    expect(judgeField(stayed, "failure.fallback")).toMatchObject({ verdict: "preserved" });
    const moved = targeted(["a:1", "b:2"], [400, 200], ok, [429, 500, 503]);
    expect(judgeField(moved, "failure.fallback")).toMatchObject({
      verdict: "mangled",
      cause: "unconfigured-fallback",
    });
  });
  it("judges the hop with the lens: a field lost on the way to the second is dropped", () => {
    const hop = targeted(["a:1", "b:2"], [503, 200], ok, "any-non-2xx");
    const second = hop.forwarded?.[1];
    if (!second) throw new Error("no second forward");
    second.body = request.body;
    const v = judgeField(hop, "failure.fallback");
    expect(v).toMatchObject({ verdict: "dropped", cause: "fallback-hop-lost" });
    expect(v.reason).toContain("temperature: 0.3 → absent");
  });
});
