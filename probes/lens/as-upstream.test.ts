/**
 * A fault the upstream itself sent is not the gateway's (as-upstream.ts): with the upstream's
 * reply recorded, a one-sided invariant's fault, a framing fault or an untyped error that the
 * upstream's own bytes already show, relayed unchanged, is `preserved (as-upstream)`; the same
 * fault introduced or made worse by what stands between is still a finding, and the same
 * client bytes with no upstream recorded are judged as before. Hand-built exchanges.
 */
import { describe, expect, it } from "vitest";
import type { ClientDialect, Dialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { parseExchange } from "../exchange.ts";
import type { Verdict } from "../verdict.ts";
import { judgeExchange } from "./judge-exchange.ts";
import { CLIENT_REQUESTS } from "./testing/client-requests.ts";

interface Reply {
  status?: number;
  body: string;
}

/**
 * An exchange through something between client and backend; `upstream` undefined leaves the
 * upstream side out (a one-sided trace with the forwarded request kept).
 */
function judged(
  route: { client: ClientDialect; backend: Dialect },
  mode: "stream" | "non-stream",
  upstream: Reply | undefined,
  client: Reply,
): Verdict[] {
  const request = CLIENT_REQUESTS[route.client];
  const backendPath = dialectModule(route.backend).routes.generate("m");
  return judgeExchange(
    parseExchange({
      route,
      mode,
      clientRequest: { path: request.path, body: { ...request.body, stream: mode === "stream" } },
      forwarded: [{ path: backendPath, body: { ...request.body, stream: mode === "stream" } }],
      ...(upstream
        ? { upstreamReply: { status: upstream.status ?? 200, body: upstream.body } }
        : {}),
      clientResponse: { status: client.status ?? 200, body: client.body },
    }),
  );
}

function of(verdicts: Verdict[], subject: string) {
  const v = verdicts.find((x) => x.subject === subject);
  return v && { verdict: v.verdict, cause: v.cause, reason: v.reason };
}

const CHAT = { client: "openai-chat", backend: "openai-chat" } as const;
const ANTHROPIC = { client: "anthropic-messages", backend: "anthropic-messages" } as const;
const CHAT_TO_ANTHROPIC = { client: "anthropic-messages", backend: "openai-chat" } as const;

const chatReply = (
  args: string,
  finish: string | null = "tool_calls",
  id = "call_1",
  content: string | null = null,
) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion",
    model: "m",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content,
          tool_calls: [
            { id, type: "function", function: { name: "get_weather", arguments: args } },
          ],
        },
        finish_reason: finish,
      },
    ],
  });

const anthropicReply = (id: string, input: unknown = { city: "Paris" }) =>
  JSON.stringify({
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "m",
    content: [{ type: "tool_use", id, name: "get_weather", input }],
    stop_reason: "tool_use",
    usage: { input_tokens: 5, output_tokens: 5 },
  });

/** Anthropic's stream of one tool call whose input_json_delta fragments are `parts`. */
function anthropicToolStream(id: string, parts: string[]): string {
  const events: [string, unknown][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [] },
      },
    ],
    [
      "content_block_start",
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id, name: "get_weather", input: {} },
      },
    ],
    ...parts.map((p): [string, unknown] => [
      "content_block_delta",
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: p },
      },
    ]),
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: "tool_use" } }],
    ["message_stop", { type: "message_stop" }],
  ];
  return events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join("");
}

const chatChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const CHAT_STREAM = `${chatChunk({ role: "assistant", content: "Hel" })}${chatChunk({ content: "lo" }, "stop")}data: [DONE]\n\n`;

const BROKEN = '{"city": "Par';

describe("invariant.tool-arguments", () => {
  it("arguments the upstream sent broken, relayed as sent, are the upstream's", () => {
    const v = judged(CHAT, "non-stream", { body: chatReply(BROKEN) }, { body: chatReply(BROKEN) });
    expect(of(v, "invariant.tool-arguments")).toEqual({
      verdict: "preserved",
      cause: "as-upstream",
      reason:
        'invariant.tool-arguments: upstream: 1 call(s) → 1 not a JSON object: get_weather "{\\"city\\": \\"Par" → relayed as the upstream sent it',
    });
  });

  it("so are they when a translating gateway carries the same text into its client's dialect", () => {
    const v = judged(
      CHAT_TO_ANTHROPIC,
      "stream",
      {
        body: `${chatChunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: BROKEN } }] }, "tool_calls")}data: [DONE]\n\n`,
      },
      { body: anthropicToolStream("toolu_1", ['{"city": ', '"Par']) },
    );
    expect(of(v, "invariant.tool-arguments")).toMatchObject({
      verdict: "preserved",
      cause: "as-upstream",
    });
  });

  it("arguments the gateway broke, or broke further, are the gateway's", () => {
    const cut = judged(
      CHAT,
      "non-stream",
      { body: chatReply('{"city":"Paris"}') },
      { body: chatReply('{"city":"Pa') },
    );
    expect(of(cut, "invariant.tool-arguments")).toMatchObject({
      verdict: "mangled",
      cause: "invalid-arguments",
    });
    const worse = judged(
      CHAT,
      "non-stream",
      { body: chatReply(BROKEN) },
      { body: chatReply('{"city"') },
    );
    expect(of(worse, "invariant.tool-arguments")).toMatchObject({
      verdict: "mangled",
      cause: "invalid-arguments",
    });
  });

  it("with no upstream recorded, the client's bytes alone are judged as before", () => {
    const v = judged(CHAT, "non-stream", undefined, { body: chatReply(BROKEN) });
    expect(of(v, "invariant.tool-arguments")).toMatchObject({
      verdict: "mangled",
      cause: "invalid-arguments",
    });
  });
});

describe("invariant.tool-call-id", () => {
  const PUNCTUATED = "functions.get_weather:0";

  it("an id the upstream sent outside its own dialect's form, relayed in that dialect, is the upstream's", () => {
    const v = judged(
      ANTHROPIC,
      "non-stream",
      { body: anthropicReply(PUNCTUATED) },
      { body: anthropicReply(PUNCTUATED) },
    );
    expect(of(v, "invariant.tool-call-id")).toMatchObject({
      verdict: "preserved",
      cause: "as-upstream",
    });
  });

  it("a Chat id (of no documented form) carried into Anthropic out of its form is the gateway's", () => {
    const v = judged(
      CHAT_TO_ANTHROPIC,
      "non-stream",
      { body: chatReply('{"city":"Paris"}', "tool_calls", PUNCTUATED) },
      { body: anthropicReply(PUNCTUATED) },
    );
    expect(of(v, "invariant.tool-call-id")).toMatchObject({
      verdict: "mangled",
      cause: "id-out-of-form",
    });
  });

  it("an id the gateway rewrote out of form is the gateway's", () => {
    const v = judged(
      ANTHROPIC,
      "non-stream",
      { body: anthropicReply("toolu_1") },
      { body: anthropicReply("toolu:1") },
    );
    expect(of(v, "invariant.tool-call-id")).toMatchObject({
      verdict: "mangled",
      cause: "id-out-of-form",
    });
  });
});

describe("invariant.tool-stop", () => {
  it("a natural stop beside a tool call that the upstream sent is the upstream's; none at all is worse", () => {
    const relayed = judged(
      CHAT,
      "non-stream",
      { body: chatReply('{"city":"Paris"}', "stop") },
      { body: chatReply('{"city":"Paris"}', "stop") },
    );
    expect(of(relayed, "invariant.tool-stop")).toMatchObject({
      verdict: "preserved",
      cause: "as-upstream",
    });
    const erased = judged(
      CHAT,
      "non-stream",
      { body: chatReply('{"city":"Paris"}') },
      { body: chatReply('{"city":"Paris"}', "stop") },
    );
    expect(of(erased, "invariant.tool-stop")).toMatchObject({
      verdict: "mangled",
      cause: "no-tool-stop",
    });
    const dropped = judged(
      CHAT,
      "non-stream",
      { body: chatReply('{"city":"Paris"}', "stop") },
      { body: chatReply('{"city":"Paris"}', null) },
    );
    expect(of(dropped, "invariant.tool-stop")).toMatchObject({
      verdict: "dropped",
      cause: "no-tool-stop",
    });
  });
});

describe("invariant.empty-content", () => {
  const withEmpty = (empties: number) =>
    JSON.stringify({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [
        ...Array.from({ length: empties }, () => ({ type: "text", text: "" })),
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 5, output_tokens: 5 },
    });

  it("an empty text block the upstream sent is the upstream's; one more is the gateway's", () => {
    const relayed = judged(ANTHROPIC, "non-stream", { body: withEmpty(1) }, { body: withEmpty(1) });
    expect(of(relayed, "invariant.empty-content")).toMatchObject({
      verdict: "preserved",
      cause: "as-upstream",
    });
    const more = judged(ANTHROPIC, "non-stream", { body: withEmpty(1) }, { body: withEmpty(2) });
    expect(of(more, "invariant.empty-content")).toMatchObject({
      verdict: "invented",
      cause: "empty-text",
    });
  });

  it("an upstream's empty text block that a Chat client gets as content \"\" is the upstream's", () => {
    const route = { client: "openai-chat", backend: "anthropic-messages" } as const;
    const chatBody = chatReply('{"city":"Paris"}', "tool_calls", "toolu_1", "");
    const relayed = judged(route, "non-stream", { body: withEmpty(1) }, { body: chatBody });
    expect(of(relayed, "invariant.empty-content")).toMatchObject({
      verdict: "preserved",
      cause: "as-upstream",
    });
    const added = judged(route, "non-stream", { body: withEmpty(0) }, { body: chatBody });
    expect(of(added, "invariant.empty-content")).toMatchObject({
      verdict: "invented",
      cause: "empty-text",
    });
  });
});

describe("invariant.block-lifecycle", () => {
  /** The tool stream with its last fragment sent after the block's stop. */
  const late = (() => {
    const events = anthropicToolStream("toolu_1", ['{"city": "Paris"}']).split("\n\n");
    // message_start, block start, delta, block stop, ...: the delta moves after the stop.
    [events[2], events[3]] = [events[3] as string, events[2] as string];
    return events.join("\n\n");
  })();

  it("a delta after its block's stop, passed on Anthropic to Anthropic, is the upstream's", () => {
    const v = judged(ANTHROPIC, "stream", { body: late }, { body: late });
    expect(of(v, "invariant.block-lifecycle")).toMatchObject({
      verdict: "preserved",
      cause: "as-upstream",
    });
  });

  it("the same from a well-formed upstream stream is the gateway's", () => {
    const good = anthropicToolStream("toolu_1", ['{"city": "Paris"}']);
    const v = judged(ANTHROPIC, "stream", { body: good }, { body: late });
    expect(of(v, "invariant.block-lifecycle")).toMatchObject({
      verdict: "invented",
      cause: "after-block-stop",
    });
  });
});

describe("stream faults", () => {
  const CUT = `${chatChunk({ role: "assistant", content: "Hel" })}data: {"id":"c1","obj`;

  it("a stream the upstream cut mid-event, passed on in its dialect, is framed as the upstream framed it", () => {
    const v = judged(CHAT, "stream", { body: CUT }, { body: CUT });
    expect(of(v, "stream.framing")).toMatchObject({ verdict: "preserved", cause: "as-upstream" });
    expect(of(v, "stream.framing")?.reason).toContain("upstream: 2 malformed:");
  });

  it("a translating gateway's stream is its own, even cut where the upstream's was", () => {
    const start = anthropicToolStream("toolu_1", []).split("\n\n").slice(0, 2).join("\n\n");
    const cut = `${start}\n\nevent: content_block_delta\ndata: {"id":"c1","obj`;
    const v = judged(CHAT_TO_ANTHROPIC, "stream", { body: CUT }, { body: cut });
    expect(of(v, "stream.framing")).toMatchObject({
      verdict: "mangled",
      cause: "malformed-events",
    });
  });

  it("a malformed event the gateway wrote, or one more than the upstream's, is the gateway's", () => {
    const own = judged(CHAT, "stream", { body: CHAT_STREAM }, { body: CUT });
    expect(of(own, "stream.framing")).toMatchObject({
      verdict: "mangled",
      cause: "malformed-events",
    });
    const more = judged(
      CHAT,
      "stream",
      { body: CUT },
      { body: `${chatChunk({ role: "assistant" })}data: {x\n\n${CUT}` },
    );
    expect(of(more, "stream.framing")).toMatchObject({
      verdict: "mangled",
      cause: "malformed-events",
    });
  });

  it("events after the terminal one: the upstream's relayed in its dialect, the gateway's added", () => {
    const extra = `${CHAT_STREAM}${chatChunk({ content: "!" })}`;
    const relayed = judged(CHAT, "stream", { body: extra }, { body: extra });
    expect(of(relayed, "invariant.one-lifecycle")).toMatchObject({
      verdict: "preserved",
      cause: "as-upstream",
    });
    const added = judged(CHAT, "stream", { body: CHAT_STREAM }, { body: extra });
    expect(of(added, "invariant.one-lifecycle")).toMatchObject({
      verdict: "invented",
      cause: "after-terminal",
    });
  });
});

describe("error.type of an upstream error with no type", () => {
  const HTML = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";

  it("an untyped body relayed unchanged into its own dialect is the provider's", () => {
    const html = judged(
      ANTHROPIC,
      "non-stream",
      { status: 502, body: HTML },
      { status: 502, body: HTML },
    );
    expect(of(html, "error.type")).toMatchObject({ verdict: "preserved", cause: "as-upstream" });
    expect(of(html, "error.type")?.reason).toContain("502 Bad Gateway");
    const empty = judged(ANTHROPIC, "stream", { status: 500, body: "" }, { status: 500, body: "" });
    expect(of(empty, "error.type")).toMatchObject({
      verdict: "preserved",
      cause: "as-upstream",
      reason: "error.type: upstream: no type in an empty body → relayed as the upstream sent it",
    });
  });

  it("a body the gateway rewrote, or carried into another dialect, owes its dialect's type for the status", () => {
    const rewritten = judged(
      ANTHROPIC,
      "non-stream",
      { status: 502, body: HTML },
      { status: 502, body: JSON.stringify({ error: "bad gateway" }) },
    );
    expect(of(rewritten, "error.type")).toMatchObject({ verdict: "dropped" });
    const untranslated = judged(
      CHAT_TO_ANTHROPIC,
      "non-stream",
      { status: 502, body: HTML },
      { status: 502, body: HTML },
    );
    expect(of(untranslated, "error.type")).toMatchObject({ verdict: "dropped" });
  });
});
