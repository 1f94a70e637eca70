import { describe, expect, it } from "vitest";
import type { CanonicalReply, StopReason } from "../../dialects/canonical.ts";
import type { ClientDialect } from "../../dialects/dialect.ts";
import { judgeReply } from "./judge-reply.ts";
import { safetyErased } from "./stop-reasons.ts";

function reply(
  dialect: CanonicalReply["dialect"],
  stopReason: StopReason,
  rawStopReason: string,
): CanonicalReply {
  return {
    dialect,
    parts: [{ type: "text", text: "Partial" }],
    stopReason,
    rawStopReason,
    extras: {},
  };
}

function finish(upstream: CanonicalReply, client: CanonicalReply) {
  const verdicts = judgeReply({
    clientDialect: client.dialect as ClientDialect,
    backend: upstream.dialect,
    mode: "non-stream",
    upstream,
    upstreamStatus: 200,
    client,
    clientStatus: 200,
  });
  return verdicts.find((v) => v.field === "finish_reason");
}

describe("a safety stop reaching the client", () => {
  const refusal = reply("anthropic-messages", "refusal", "refusal");
  const filtered = reply("gemini", "content_filter", "SAFETY");

  it("is erased when an Anthropic refusal arrives as Chat stop or Responses completed", () => {
    for (const client of [
      reply("openai-chat", "stop", "stop"),
      reply("openai-responses", "stop", "completed"),
    ]) {
      expect(finish(refusal, client)).toMatchObject({ verdict: "mangled", cause: "erased-safety" });
    }
    expect(finish(filtered, reply("openai-chat", "stop", "stop"))).toMatchObject({
      verdict: "mangled",
      cause: "erased-safety",
    });
  });

  it("is preserved as content_filter, incomplete/content_filter or refusal", () => {
    const chat = reply("openai-chat", "content_filter", "content_filter");
    const responses = reply("openai-responses", "content_filter", "incomplete/content_filter");
    const anthropic = reply("anthropic-messages", "refusal", "refusal");
    expect(finish(filtered, chat)?.verdict).toBe("preserved");
    expect(finish(filtered, responses)?.verdict).toBe("preserved");
    expect(finish(filtered, anthropic)?.verdict).toBe("preserved");
    expect(finish(refusal, anthropic)?.verdict).toBe("preserved");
  });

  it("names only safety-to-natural as an erasure", () => {
    expect(safetyErased("refusal", "stop")).toBe(true);
    expect(safetyErased("content_filter", "stop_sequence")).toBe(true);
    expect(safetyErased("refusal", "content_filter")).toBe(false);
    expect(safetyErased("length", "stop")).toBe(false);
    expect(safetyErased("stop", "stop")).toBe(false);
  });
});
