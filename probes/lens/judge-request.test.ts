import { describe, expect, it } from "vitest";
import type { Part } from "../../dialects/canonical.ts";
import { readRequest, writeRequest } from "../../dialects/request.ts";
import { assistant, judge, only, req, user } from "./testing/request-pairs.ts";

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
    // Under Chat's own key, which Anthropic does not define: the backend never reads it, so the
    // value is mangled (foreign-key), not absent (issue 20).
    const elsewhere = judge(client, req("anthropic-messages", { extras: { stop: "STOPPROBE" } }));
    expect(only(elsewhere, "stop")).toMatchObject({ verdict: "mangled", cause: "foreign-key" });
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

  it("counts a budget carried as an effort level as preserved (the nearest unit), else no-equivalent in Chat", () => {
    const client = req("anthropic-messages", {
      reasoning: { mode: "enabled", budgetTokens: 2048 },
    });
    const verdicts = judge(client, req("openai-chat", { reasoning: { effort: "low" } }));
    expect(only(verdicts, "thinking.budget_tokens")).toMatchObject({
      verdict: "preserved",
      cause: "as-effort",
      reason: 'thinking.budget_tokens: 2048 → absent, carried as an effort level "low"',
    });
    expect(only(verdicts, "thinking.type").verdict).toBe("preserved");
    const none = judge(client, req("openai-chat", {}));
    expect(only(none, "thinking.budget_tokens").verdict).toBe("no-equivalent");
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

  it("leaves a body credential to the credential rule: an unknown key holding only credentials is not an extra", () => {
    const apiKey = "sk-BODYKEYPROBE-0123456789";
    const client = req("openai-chat", {
      extras: {
        api_key: apiKey,
        extra_headers: { "x-api-key": apiKey },
        metadata_headers: { "x-api-key": apiKey, "x-trace": "TRACEPROBE" },
      },
    });
    const stripped = judge(client, req("openai-chat"));
    expect(stripped.filter((v) => v.field === "api_key")).toEqual([]);
    expect(stripped.filter((v) => v.field === "extra_headers")).toEqual([]);
    // What else the key carries is still owed: judged without the credential.
    expect(only(stripped, "metadata_headers")).toMatchObject({ verdict: "dropped" });
    const kept = judge(
      client,
      req("openai-chat", { extras: { metadata_headers: { "x-trace": "TRACEPROBE" } } }),
    );
    expect(only(kept, "metadata_headers").verdict).toBe("preserved");
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
    // A sampling attribute is one a gateway may add on its own: added, it is invented.
    expect(only(judge(onChat({}), onChat({ logit_bias: bias })), "logit_bias")).toMatchObject({
      verdict: "invented",
      cause: "value-added",
    });
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
