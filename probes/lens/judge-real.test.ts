/**
 * Exchanges recorded from real gateways (Portkey 1.15.2, claude-code-router 2.0.0, installed
 * from npm) against the gatecheck mock on 2026-11-30, extracted from the sweep database with
 * credentials redacted by the recorder. Each expectation is what the bytes show:
 *
 * - ccr → Chat, disable_parallel_tool_use: forwarded `"tool_choice":"auto"` and no
 *   `parallel_tool_calls` at all.
 * - ccr → Chat, base64 image: forwarded as an `image_url` data URL but with a stray
 *   `"media_type"` key in the part, a shape Chat does not define.
 * - ccr → Gemini: `"generationConfig":{}`, so max_tokens and stop_sequences are gone; in the
 *   stream, Gemini's usageMetadata (12 in, 9 out) reaches the client as 0 and 0.
 * - Portkey, Anthropic → Anthropic: the client's `authorization: Bearer [REDACTED:09c785fd]`
 *   is forwarded as `x-api-key: [REDACTED:09c785fd]`, the same secret. Portkey is built to
 *   pass the caller's key through; by the lens's rule (a client credential reached the
 *   backend) it is a leak, and the sweep is where a pass-through gateway gets that context.
 * - Portkey, stream: the upstream streamed a good reply and Portkey answered 500
 *   `{"status":"failure","message":"Something went wrong"}`: a loud refusal.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExchangeText } from "../exchange.ts";
import { isClean } from "../verdict.ts";
import { judgeExchange } from "./judge-exchange.ts";

const REAL = join(import.meta.dirname, "fixtures", "real");

const READINGS: Record<string, Record<string, string>> = {
  "claude-code-router-am-disable-parallel-tool-use-openai-chat-stream.json": {
    "tool_choice.disable_parallel_tool_use": "dropped",
  },
  "claude-code-router-am-image-base64-openai-chat-non-stream.json": {
    "messages[].content[].image": "mangled/malformed-part",
  },
  "claude-code-router-am-stop-sequences-gemini-non-stream.json": {
    max_tokens: "dropped",
    stop_sequences: "dropped",
  },
  "claude-code-router-am-stop-sequences-gemini-stream.json": {
    max_tokens: "dropped",
    stop_sequences: "dropped",
    "usage.input_tokens": "mangled",
    "usage.output_tokens": "mangled",
  },
  "portkey-am-stop-sequences-anthropic-messages-non-stream.json": {
    "credentials.header.authorization": "leaked",
  },
  "portkey-am-stop-sequences-anthropic-messages-stream.json": {
    "credentials.header.authorization": "leaked",
    id: "rejected",
    text: "rejected",
    finish_reason: "rejected",
    "usage.input_tokens": "rejected",
    "usage.output_tokens": "rejected",
    "usage.cache_read_tokens": "rejected",
    "usage.cache_write_tokens": "rejected",
    "stream.terminal": "rejected",
    "stream.framing": "rejected",
  },
};

describe("exchanges recorded from real gateways", () => {
  for (const [name, findings] of Object.entries(READINGS)) {
    it(name, () => {
      const verdicts = judgeExchange(
        parseExchangeText(readFileSync(join(REAL, name), "utf8"), name),
      );
      const got = Object.fromEntries(
        verdicts
          .filter((v) => !isClean(v.verdict))
          .map((v) => [
            v.field,
            findings[v.field]?.includes("/") && v.cause ? `${v.verdict}/${v.cause}` : v.verdict,
          ]),
      );
      expect(got).toEqual(findings);
    });
  }

  it("keeps stop_sequences where the gateway carried them (Portkey, same dialect)", () => {
    const name = "portkey-am-stop-sequences-anthropic-messages-non-stream.json";
    const verdicts = judgeExchange(parseExchangeText(readFileSync(join(REAL, name), "utf8"), name));
    expect(verdicts.find((v) => v.field === "stop_sequences")?.reason).toBe(
      'stop_sequences: ["STOPPROBE"] → ["STOPPROBE"]',
    );
  });
});
