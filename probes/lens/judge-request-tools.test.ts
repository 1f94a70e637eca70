import { describe, expect, it } from "vitest";
import type { Message, Part } from "../../dialects/canonical.ts";
import type { Verdict } from "../verdict.ts";
import { assistant, judge, only, req, user } from "./testing/request-pairs.ts";

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
    // An absent id is absent (issue 20): not a rename to "", and it links to nothing.
    expect(only(noResultId, "messages[].content[].tool_use_id")).toMatchObject({
      verdict: "dropped",
      reason: 'messages[].content[].tool_use_id: ["toolu_01PROBE"] → absent',
    });
    const noIds = judge(client, req("gemini", { messages: turns("", "") }));
    expect(only(noIds, "messages[].content[].id").verdict).toBe("dropped");
    expect(only(noIds, "messages[].content[].tool_use_id").verdict).toBe("dropped");
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
