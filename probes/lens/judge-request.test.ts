import { describe, expect, it } from "vitest";
import type { CanonicalRequest, Message, Part } from "../../dialects/canonical.ts";
import type { ClientDialect, Dialect } from "../../dialects/dialect.ts";
import { readRequest, writeRequest } from "../../dialects/request.ts";
import type { Verdict } from "../verdict.ts";
import { judgeRequest, type RequestPair } from "./judge-request.ts";

function req(dialect: Dialect, over: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    dialect,
    system: [],
    messages: [user("hi")],
    tools: [],
    sampling: {},
    extras: {},
    ...over,
  };
}

function user(...parts: (string | Part)[]): Message {
  return {
    role: "user",
    parts: parts.map((p) => (typeof p === "string" ? { type: "text", text: p } : p)),
  };
}

function assistant(...parts: (string | Part)[]): Message {
  return {
    role: "assistant",
    parts: parts.map((p) => (typeof p === "string" ? { type: "text", text: p } : p)),
  };
}

function judge(
  client: CanonicalRequest,
  forwarded: CanonicalRequest,
  clientBody?: unknown,
): Verdict[] {
  const pair: RequestPair = {
    clientDialect: client.dialect as ClientDialect,
    backend: forwarded.dialect,
    client,
    forwarded,
    clientBody,
  };
  return judgeRequest(pair);
}

function only(verdicts: Verdict[], field: string): Verdict {
  const found = verdicts.filter((v) => v.field === field);
  expect(found, `verdicts for ${field}: ${JSON.stringify(verdicts)}`).toHaveLength(1);
  return found[0] as Verdict;
}

describe("value attributes", () => {
  it("keeps 0.3 as 0.3 and calls any other number mangled", () => {
    const client = req("anthropic-messages", { sampling: { temperature: 0.3 } });
    const same = judge(client, req("openai-chat", { sampling: { temperature: 0.3 } }));
    expect(only(same, "temperature")).toMatchObject({
      verdict: "preserved",
      reason: "temperature: 0.3 → 0.3",
    });
    const changed = judge(client, req("openai-chat", { sampling: { temperature: 0.30000001 } }));
    expect(only(changed, "temperature")).toMatchObject({
      verdict: "mangled",
      reason: "temperature: 0.3 → 0.30000001",
    });
  });

  it("names a dropped stop sequence with both values, and no-equivalent only from the table", () => {
    const client = req("anthropic-messages", { sampling: { stop: ["STOPPROBE"] } });
    const chat = judge(client, req("openai-chat"));
    expect(only(chat, "stop_sequences")).toMatchObject({
      verdict: "dropped",
      reason: 'stop_sequences: ["STOPPROBE"] → absent',
      direction: "request",
    });
    const responses = judge(client, req("openai-responses"));
    expect(only(responses, "stop_sequences").verdict).toBe("no-equivalent");
    const carried = judge(client, req("gemini", { sampling: { stop: ["STOPPROBE"] } }));
    expect(only(carried, "stop_sequences").verdict).toBe("preserved");
  });

  it("calls a value under the backend's own key in a shape it does not define mangled, not dropped", () => {
    const client = req("openai-chat", { sampling: { stop: ["STOPPROBE"] } });
    // Portkey 1.15.2: "stop":"STOPPROBE" forwarded as "stop_sequences":"STOPPROBE" (not an array).
    const string = judge(
      client,
      req("anthropic-messages", { extras: { stop_sequences: "STOPPROBE" } }),
    );
    expect(only(string, "stop")).toMatchObject({
      verdict: "mangled",
      cause: "malformed",
      reason:
        'stop: ["STOPPROBE"] → stop_sequences "STOPPROBE", a shape anthropic-messages does not define',
    });
    const gemini = judge(
      client,
      req("gemini", { extras: { generationConfig: { stopSequences: "STOPPROBE" } } }),
    );
    expect(only(gemini, "stop")).toMatchObject({ verdict: "mangled", cause: "malformed" });
    const elsewhere = judge(client, req("anthropic-messages", { extras: { stop: "STOPPROBE" } }));
    expect(only(elsewhere, "stop").verdict).toBe("dropped");
  });

  it("judges top_k: no equivalent in Chat, dropped where Gemini has topK, carried as an unknown key", () => {
    const client = req("anthropic-messages", { sampling: { topK: 40 } });
    expect(only(judge(client, req("openai-chat")), "top_k").verdict).toBe("no-equivalent");
    expect(only(judge(client, req("gemini")), "top_k").verdict).toBe("dropped");
    const asExtra = judge(client, req("openai-chat", { extras: { top_k: 40 } }));
    expect(only(asExtra, "top_k")).toMatchObject({ verdict: "preserved", cause: "unknown-key" });
  });

  it("maps disable_parallel_tool_use to parallel_tool_calls: false", () => {
    const client = req("anthropic-messages", {
      parallelToolCalls: false,
      toolChoice: { mode: "required" },
    });
    const good = judge(
      client,
      req("openai-chat", { parallelToolCalls: false, toolChoice: { mode: "required" } }),
    );
    expect(only(good, "tool_choice.disable_parallel_tool_use").verdict).toBe("preserved");
    expect(only(good, "tool_choice").verdict).toBe("preserved");
    const lost = judge(client, req("openai-chat", { toolChoice: { mode: "required" } }));
    expect(only(lost, "tool_choice.disable_parallel_tool_use")).toMatchObject({
      verdict: "dropped",
      reason: "tool_choice.disable_parallel_tool_use: false → absent",
    });
    expect(
      only(judge(client, req("gemini")), "tool_choice.disable_parallel_tool_use").verdict,
    ).toBe("no-equivalent");
  });

  it("treats an explicit default sent and an absent field downstream as the same", () => {
    const client = req("openai-chat", {
      parallelToolCalls: true,
      streamOptions: { includeUsage: true },
      stream: true,
    });
    const forwarded = req("anthropic-messages", { stream: true });
    const verdicts = judge(client, forwarded);
    expect(only(verdicts, "parallel_tool_calls").verdict).toBe("preserved");
    // Anthropic always reports usage in its stream.
    expect(only(verdicts, "stream_options.include_usage").verdict).toBe("preserved");
    expect(
      only(judge(client, req("openai-chat", { stream: true })), "stream_options.include_usage")
        .verdict,
    ).toBe("dropped");
  });

  it("reads the end-user id by meaning: metadata.user_id ↔ user", () => {
    const client = req("anthropic-messages", { metadata: { user_id: "u-42" } });
    expect(
      only(judge(client, req("openai-chat", { user: "u-42" })), "metadata.user_id").verdict,
    ).toBe("preserved");
    expect(only(judge(client, req("gemini")), "metadata.user_id").verdict).toBe("no-equivalent");
  });

  it("counts a budget as having no Chat equivalent even when an effort was sent instead", () => {
    const client = req("anthropic-messages", {
      reasoning: { mode: "enabled", budgetTokens: 2048 },
    });
    const verdicts = judge(client, req("openai-chat", { reasoning: { effort: "low" } }));
    expect(only(verdicts, "thinking.budget_tokens").verdict).toBe("no-equivalent");
    expect(only(verdicts, "thinking.type").verdict).toBe("preserved");
    expect(
      only(judge(client, req("gemini", { reasoning: {} })), "thinking.budget_tokens").verdict,
    ).toBe("dropped");
  });

  it("counts Gemini includeThoughts as thinking switched on (the budget is judged apart)", () => {
    const client = req("anthropic-messages", {
      reasoning: { mode: "enabled", budgetTokens: 2048 },
    });
    const thoughts = (includeThoughts: boolean) =>
      req("gemini", { reasoning: { includeThoughts } });
    const on = judge(client, thoughts(true));
    expect(only(on, "thinking.type")).toMatchObject({
      verdict: "preserved",
      cause: "include-thoughts",
    });
    expect(only(on, "thinking.budget_tokens").verdict).toBe("dropped");
    expect(only(judge(client, thoughts(false)), "thinking.type").verdict).toBe("dropped");
    // includeThoughts does not switch thinking off: a disabled request is not carried by it.
    const off = req("anthropic-messages", { reasoning: { mode: "disabled" } });
    expect(only(judge(off, thoughts(true)), "thinking.type").verdict).toBe("dropped");
  });

  it("names the field by the alias the client used", () => {
    const client = req("openai-chat", { sampling: { maxTokens: 64 } });
    const verdicts = judge(client, req("anthropic-messages", { sampling: { maxTokens: 64 } }), {
      max_completion_tokens: 64,
    });
    expect(only(verdicts, "max_completion_tokens").verdict).toBe("preserved");
  });

  it("compares unknown keys by value", () => {
    const prediction = { type: "content", content: "PREDICTPROBE" };
    const client = req("openai-chat", { extras: { prediction } });
    expect(only(judge(client, req("openai-chat")), "prediction").verdict).toBe("dropped");
    expect(
      only(judge(client, req("openai-chat", { extras: { prediction } })), "prediction").verdict,
    ).toBe("preserved");
  });

  // The attribute added to show what adding one costs (docs/architecture.md): its type in
  // canonical.ts, its name and accessor in attributes.ts, a row in each field table, a probe.
  it("judges logit_bias from the rows alone: by value on Chat, no-equivalent elsewhere", () => {
    const body = { model: "m", messages: [{ role: "user", content: "hi" }] };
    const bias = { "50256": -100 };
    const client = readRequest("openai-chat", { ...body, logit_bias: bias });
    expect(client.sampling.logitBias).toEqual(bias);
    expect(client.extras).not.toHaveProperty("logit_bias");
    const onChat = (b: unknown) => readRequest("openai-chat", { ...body, ...(b as object) });
    expect(only(judge(client, onChat({ logit_bias: bias })), "logit_bias")).toMatchObject({
      subject: "sampling.logit-bias",
      verdict: "preserved",
    });
    expect(only(judge(client, onChat({})), "logit_bias").verdict).toBe("dropped");
    expect(
      only(judge(client, onChat({ logit_bias: { "50256": 100 } })), "logit_bias").verdict,
    ).toBe("mangled");
    for (const backend of ["openai-responses", "anthropic-messages", "gemini", "ollama"] as const) {
      const written = writeRequest(backend, client);
      expect(written.omitted.map((o) => o.subject)).toContain("sampling.logit-bias");
      const forwarded = readRequest(backend, written.body);
      expect(only(judge(client, forwarded), "logit_bias").verdict, backend).toBe("no-equivalent");
    }
  });

  it("compares a response format over the keys the client sent (a required name may be added)", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const client = req("anthropic-messages", { responseFormat: { type: "json_schema", schema } });
    const forwarded = req("openai-chat", {
      responseFormat: { type: "json_schema", schema, name: "out", strict: true },
    });
    expect(only(judge(client, forwarded), "output_config.format").verdict).toBe("preserved");
  });
});

describe("content", () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk";
  const image: Part = {
    type: "image",
    source: { kind: "base64", mediaType: "image/png", data: png },
  };

  it("keeps an image an image, even as a data URL", () => {
    const client = req("anthropic-messages", { messages: [user("look", image)] });
    const forwarded = req("openai-chat", {
      messages: [
        user("look", {
          type: "image",
          source: { kind: "url", url: `data:image/png;base64,${png}` },
        }),
      ],
    });
    expect(only(judge(client, forwarded), "messages[].content[].image").verdict).toBe("preserved");
  });

  it("calls base64 inside a text string mangled, cause stringified", () => {
    const client = req("anthropic-messages", { messages: [user("look", image)] });
    const forwarded = req("openai-chat", {
      messages: [user(`look [{"type":"image","data":"${png}"}]`)],
    });
    expect(only(judge(client, forwarded), "messages[].content[].image")).toMatchObject({
      verdict: "mangled",
      cause: "stringified",
    });
    expect(
      only(
        judge(client, req("openai-chat", { messages: [user("look")] })),
        "messages[].content[].image",
      ).verdict,
    ).toBe("dropped");
  });

  it("carries a system prompt from Anthropic `system` into a Chat system message", () => {
    const client = req("anthropic-messages", { system: [{ type: "text", text: "SYSPROBE-7731" }] });
    const forwarded = req("openai-chat", {
      messages: [{ role: "system", parts: [{ type: "text", text: "SYSPROBE-7731" }] }, user("hi")],
    });
    const verdicts = judge(client, forwarded);
    expect(only(verdicts, "system").verdict).toBe("preserved");
    expect(only(verdicts, "messages").verdict).toBe("preserved");
    expect(
      only(judge(client, req("openai-chat", { messages: [user("SYSPROBE-7731 hi")] })), "system"),
    ).toMatchObject({
      verdict: "mangled",
      cause: "moved",
    });
  });

  const thinking: Part = { type: "thinking", text: "private plan", signature: "sig-abc" };
  const history = [user("q"), assistant(thinking, "answer"), user("more")];

  it("requires prior thinking to stay private", () => {
    const client = req("anthropic-messages", { messages: history });
    expect(
      only(
        judge(client, req("anthropic-messages", { messages: history })),
        "messages[].content[].thinking",
      ).verdict,
    ).toBe("preserved");
    const leaked = req("openai-chat", {
      messages: [user("q"), assistant("private plan\nanswer"), user("more")],
    });
    expect(only(judge(client, leaked), "messages[].content[].thinking")).toMatchObject({
      verdict: "mangled",
      cause: "reasoning-as-text",
    });
    const gone = [user("q"), assistant("answer"), user("more")];
    expect(
      only(judge(client, req("openai-chat", { messages: gone })), "messages[].content[].thinking")
        .verdict,
    ).toBe("no-equivalent");
    expect(
      only(
        judge(client, req("anthropic-messages", { messages: gone })),
        "messages[].content[].thinking",
      ).verdict,
    ).toBe("dropped");
    expect(
      only(judge(client, req("openai-chat", { messages: gone })), "messages[].content[].signature")
        .verdict,
    ).toBe("no-equivalent");
  });
});

describe("tools", () => {
  const call = (id: string): Part => ({
    type: "tool-call",
    id,
    name: "get_weather",
    arguments: '{"city":"Oslo"}',
  });
  const result = (id: string): Part => ({
    type: "tool-result",
    callId: id,
    content: [{ type: "text", text: "4C" }],
  });
  const turns = (a: string, b = a) => [user("weather?"), assistant(call(a)), user(result(b))];

  it("keeps tool-call ids, accepts a linked rewrite, and flags a broken link", () => {
    const client = req("anthropic-messages", { messages: turns("toolu_IDPROBE_8899") });
    const same = judge(
      client,
      req("anthropic-messages", { messages: turns("toolu_IDPROBE_8899") }),
    );
    expect(only(same, "messages[].content[].id").verdict).toBe("preserved");
    expect(only(same, "messages[].content[].tool_use_id").verdict).toBe("preserved");
    const linked = judge(client, req("openai-chat", { messages: turns("call_1") }));
    expect(only(linked, "messages[].content[].id")).toMatchObject({
      verdict: "preserved",
      cause: "rewritten-linked",
    });
    const broken = judge(client, req("openai-chat", { messages: turns("call_1", "call_2") }));
    expect(only(broken, "messages[].content[].id")).toMatchObject({
      verdict: "mangled",
      cause: "unlinked",
    });
  });

  it("judges a call's id apart from its result's link (Gemini functionResponse without id)", () => {
    const client = req("anthropic-messages", { messages: turns("toolu_01PROBE") });
    const noResultId = judge(client, req("gemini", { messages: turns("toolu_01PROBE", "") }));
    expect(only(noResultId, "messages[].content[].id")).toMatchObject({
      verdict: "preserved",
      reason: 'messages[].content[].id: ["toolu_01PROBE"] → ["toolu_01PROBE"]',
    });
    expect(only(noResultId, "messages[].content[].tool_use_id")).toMatchObject({
      verdict: "mangled",
      cause: "unlinked",
      reason: 'messages[].content[].tool_use_id: ["toolu_01PROBE"] → [""]',
    });
    // The call renamed but the result left on the old id: both ends of the link are broken.
    const stale = judge(client, req("openai-chat", { messages: turns("call_1", "toolu_01PROBE") }));
    expect(only(stale, "messages[].content[].id")).toMatchObject({ verdict: "mangled" });
    expect(only(stale, "messages[].content[].tool_use_id")).toMatchObject({ verdict: "mangled" });
    const linked = judge(client, req("openai-chat", { messages: turns("call_1") }));
    expect(only(linked, "messages[].content[].tool_use_id")).toMatchObject({
      verdict: "preserved",
      cause: "rewritten-linked",
    });
  });

  it("compares arguments by JSON meaning and results by content", () => {
    const client = req("anthropic-messages", { messages: turns("t1") });
    const spaced = turns("t1");
    (spaced[1] as Message).parts[0] = {
      type: "tool-call",
      id: "t1",
      name: "get_weather",
      arguments: '{ "city": "Oslo" }',
    };
    const verdicts = judge(client, req("openai-chat", { messages: spaced }));
    expect(only(verdicts, "messages[].content[].input").verdict).toBe("preserved");
    expect(only(verdicts, "messages[].content[].tool_result").verdict).toBe("preserved");
    const empty = turns("t1");
    (empty[1] as Message).parts[0] = {
      type: "tool-call",
      id: "t1",
      name: "get_weather",
      arguments: "",
    };
    expect(
      only(judge(client, req("openai-chat", { messages: empty })), "messages[].content[].input")
        .verdict,
    ).toBe("mangled");
  });

  it("reads a Gemini response object wrapping the result text in one key as carried", () => {
    const client = req("anthropic-messages", { messages: turns("t1") });
    const withText = (text: string) => {
      const messages = turns("t1");
      (messages[2] as Message).parts[0] = {
        type: "tool-result",
        callId: "t1",
        content: [{ type: "text", text }],
      };
      return messages;
    };
    // The reader reads {"output": v} as v; any other object is its JSON, the model's input.
    const wrapped = judge(client, req("gemini", { messages: withText('{"result":"4C"}') }));
    expect(only(wrapped, "messages[].content[].tool_result")).toMatchObject({
      verdict: "preserved",
      cause: "wrapped",
    });
    const other = judge(client, req("gemini", { messages: withText('{"result":"5C"}') }));
    expect(only(other, "messages[].content[].tool_result").verdict).toBe("mangled");
    const twoKeys = judge(
      client,
      req("gemini", { messages: withText('{"result":"4C","note":"x"}') }),
    );
    expect(only(twoKeys, "messages[].content[].tool_result").verdict).toBe("mangled");
    // Chat carries the text itself: a JSON wrapper there is text the client never wrote.
    const chat = judge(client, req("openai-chat", { messages: withText('{"result":"4C"}') }));
    expect(only(chat, "messages[].content[].tool_result").verdict).toBe("mangled");
  });

  it("orders tool results right after their calls", () => {
    const note: Message = { role: "system", parts: [{ type: "text", text: "NOTE-5531" }] };
    const client = req("openai-chat", {
      messages: [
        user("weather?"),
        assistant(call("c1")),
        { role: "tool", parts: [result("c1")] },
        note,
      ],
    });
    const moved = req("anthropic-messages", {
      messages: [user("weather?"), assistant(call("c1")), note, user(result("c1"))],
    });
    expect(only(judge(client, moved), "messages")).toMatchObject({
      verdict: "mangled",
      cause: "reordered",
    });
  });

  it("reports schema keys the client never sent as invented, lost keys as mangled", () => {
    const schema = {
      type: "object",
      properties: { city: { type: "string" } },
      additionalProperties: false,
    };
    const tool = (s: unknown) => ({ name: "get_weather", kind: "function", schema: s });
    const client = req("anthropic-messages", { tools: [tool(schema)] });
    const added = judge(
      client,
      req("openai-chat", { tools: [tool({ ...schema, required: [], $defs: {} })] }),
    );
    expect(only(added, "tools[].input_schema")).toMatchObject({
      verdict: "invented",
      cause: "schema-additions",
    });
    const { additionalProperties: _gone, ...lost } = schema;
    expect(
      only(judge(client, req("gemini", { tools: [tool(lost)] })), "tools[].input_schema").verdict,
    ).toBe("mangled");
    const upper = {
      type: "OBJECT",
      properties: { city: { type: "STRING" } },
      additionalProperties: false,
    };
    expect(
      only(judge(client, req("gemini", { tools: [tool(upper)] })), "tools[].input_schema").verdict,
    ).toBe("preserved");
  });

  it("finds invented content: an empty text block, a phantom message, a cache marker", () => {
    const client = req("openai-chat", { messages: turns("c1") });
    const forwarded = req("anthropic-messages", {
      messages: [
        user({ type: "text", text: "weather?", cache: { type: "ephemeral", raw: {} } }),
        assistant({ type: "text", text: "" }, call("c1")),
        user(result("c1")),
        { role: "user", parts: [] },
      ],
    });
    const invented = judge(client, forwarded).filter((v) => v.verdict === "invented");
    expect(invented.map((v) => v.cause).sort()).toEqual([
      "cache-added",
      "empty-text",
      "phantom-message",
    ]);
  });
});

describe("turns", () => {
  const refusal: Part = { type: "refusal", text: "REFUSEPROBE I can't share that." };
  const emptyAssistant: Message = { role: "assistant", parts: [] };

  it("calls a client turn that arrives with its content emptied dropped, not invented", () => {
    // Portkey 1.15.2: an assistant turn {content: null, refusal} forwarded as content [].
    const client = req("openai-chat", {
      messages: [user("secret?"), assistant(refusal), user("weather?")],
    });
    const forwarded = req("anthropic-messages", {
      messages: [user("secret?"), emptyAssistant, user("weather?")],
    });
    const verdicts = judge(client, forwarded);
    expect(verdicts.filter((v) => v.verdict === "invented")).toEqual([]);
    expect(only(verdicts, "messages")).toMatchObject({ verdict: "dropped", cause: "turn-emptied" });
    expect(only(verdicts, "messages[].refusal").verdict).toBe("dropped");
  });

  it("still finds an empty message the client never sent beside its own turns", () => {
    const between = judge(
      req("openai-chat", { messages: [user("one"), user("two")] }),
      req("anthropic-messages", { messages: [user("one"), emptyAssistant, user("two")] }),
    );
    const order = (vs: Verdict[]) =>
      vs.filter((v) => v.field === "messages" && v.verdict !== "invented").map((v) => v.verdict);
    expect(order(between)).toEqual(["preserved"]);
    expect(between.filter((v) => v.verdict === "invented").map((v) => v.cause)).toEqual([
      "phantom-message",
    ]);
    // An empty assistant message added before the one that carries the client's text.
    const before = judge(
      req("openai-chat", { messages: [user("one"), assistant("A"), user("two")] }),
      req("anthropic-messages", {
        messages: [user("one"), emptyAssistant, assistant("A"), user("two")],
      }),
    );
    expect(order(before)).toEqual(["preserved"]);
    expect(before.filter((v) => v.verdict === "invented").map((v) => v.cause)).toEqual([
      "phantom-message",
    ]);
  });
});
