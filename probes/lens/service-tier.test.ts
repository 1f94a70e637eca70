/**
 * `service_tier` by meaning (issue 20 §2): each dialect's field table lists its values with
 * what they mean (dialects/value-tables.ts); the writers write the target's value of the same
 * meaning and the lens compares meanings.
 */
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../dialects/dialect.ts";
import { readRequest, writeRequest } from "../../dialects/request.ts";
import { judge, only, req } from "./testing/request-pairs.ts";

const CHAT = { model: "m", messages: [{ role: "user", content: "hi" }] };
const MESSAGES = { ...CHAT, max_tokens: 64 };

function through(client: ReturnType<typeof readRequest>, backend: Dialect) {
  const written = writeRequest(backend, client);
  const path = backend === "gemini" ? "/v1beta/models/m:generateContent" : undefined;
  return { written, verdicts: judge(client, readRequest(backend, written.body, { path })) };
}

describe("service_tier by meaning", () => {
  it("Chat default is Messages standard_only, both ways", () => {
    const chat = readRequest("openai-chat", { ...CHAT, service_tier: "default" });
    const toMessages = through(chat, "anthropic-messages");
    expect(toMessages.written.body.service_tier).toBe("standard_only");
    expect(only(toMessages.verdicts, "service_tier")).toMatchObject({
      verdict: "preserved",
      reason: 'service_tier: "default" → "standard_only" (both mean standard)',
    });
    const messages = readRequest("anthropic-messages", {
      ...MESSAGES,
      service_tier: "standard_only",
    });
    const toChat = through(messages, "openai-chat");
    expect(toChat.written.body.service_tier).toBe("default");
    expect(only(toChat.verdicts, "service_tier").verdict).toBe("preserved");
    expect(only(judge(messages, req("openai-chat")), "service_tier").verdict).toBe("dropped");
  });

  it("a tier the target has no value for is no-equivalent, and named among the omissions", () => {
    const flex = readRequest("openai-chat", { ...CHAT, service_tier: "flex" });
    const { written, verdicts } = through(flex, "anthropic-messages");
    expect(written.body.service_tier).toBeUndefined();
    expect(written.omitted).toContainEqual(
      expect.objectContaining({
        subject: "service-tier",
        reason: "no value means flex (it has auto, standard_only)",
      }),
    );
    expect(only(verdicts, "service_tier")).toMatchObject({
      verdict: "no-equivalent",
      reason:
        'service_tier: "flex" → absent (anthropic-messages: no value means flex; it has auto, standard_only)',
    });
    expect(only(through(flex, "openai-responses").verdicts, "service_tier").verdict).toBe(
      "preserved",
    );
  });

  it("a value the target does not define is mangled (malformed); another meaning mangled", () => {
    const flex = readRequest("openai-chat", { ...CHAT, service_tier: "flex" });
    const raw = judge(flex, req("anthropic-messages", { serviceTier: "flex" }));
    expect(only(raw, "service_tier")).toMatchObject({ verdict: "mangled", cause: "malformed" });
    const other = judge(flex, req("anthropic-messages", { serviceTier: "auto" }));
    expect(only(other, "service_tier")).toMatchObject({
      verdict: "mangled",
      reason: 'service_tier: "flex" → "auto" ("flex" means flex, "auto" auto)',
    });
  });

  it("auto left out is the default tier; no tier at all is no-equivalent (Gemini, Ollama)", () => {
    const auto = readRequest("anthropic-messages", { ...MESSAGES, service_tier: "auto" });
    expect(only(judge(auto, req("openai-chat")), "service_tier").verdict).toBe("preserved");
    const priority = readRequest("openai-chat", { ...CHAT, service_tier: "priority" });
    expect(only(through(priority, "gemini").verdicts, "service_tier").verdict).toBe(
      "no-equivalent",
    );
    expect(only(through(priority, "ollama").verdicts, "service_tier").verdict).toBe(
      "no-equivalent",
    );
  });
});
