/**
 * A safety stop must stay a safety stop when a reply crosses dialects. The fixture is the
 * response Anthropic documents for a streaming-classifier refusal
 * (https://docs.anthropic.com/en/docs/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals);
 * Chat says it with finish_reason "content_filter" and Responses with status "incomplete",
 * incomplete_details.reason "content_filter" (never a natural "stop" / "completed").
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Dialect } from "./dialect.ts";
import { encodeEvents, readReply, writeReply, writeReplyEvents } from "./reply.ts";

const refusal = readReply(
  "anthropic-messages",
  {
    status: 200,
    body: readFileSync(
      new URL("./anthropic-messages/fixtures/reply-streaming-refusal.json", import.meta.url),
      "utf8",
    ),
  },
  "non-stream",
);

function across(target: Dialect) {
  const { rawStopReason: _raw, extras: _extras, ...meaning } = refusal;
  const reply = { ...meaning, extras: {}, dialect: target };
  const json = writeReply(target, reply);
  const back = readReply(target, { status: 200, body: JSON.stringify(json) }, "non-stream");
  const wire = encodeEvents(target, writeReplyEvents(target, reply));
  const streamed = readReply(target, { status: 200, body: wire }, "stream");
  return { json, back, streamed };
}

describe("a refusal stop written in another dialect", () => {
  it("reads the documented Anthropic refusal as a refusal stop", () => {
    expect(refusal.stopReason).toBe("refusal");
    expect(refusal.parts).toEqual([{ type: "text", text: "Hello.." }]);
  });

  it('reaches Chat as finish_reason "content_filter", and reads back as content_filter', () => {
    const { json, back, streamed } = across("openai-chat");
    expect(json.choices).toMatchObject([{ finish_reason: "content_filter" }]);
    expect(back.stopReason).toBe("content_filter");
    expect(streamed.stopReason).toBe("content_filter");
    expect(streamed.rawStopReason).toBe("content_filter");
  });

  it("reaches Responses as incomplete with reason content_filter, in both modes", () => {
    const { json, back, streamed } = across("openai-responses");
    expect(json).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "content_filter" },
    });
    expect(back.stopReason).toBe("content_filter");
    expect(streamed.stopReason).toBe("content_filter");
    expect(streamed.stream?.terminalEvent).toBe("response.incomplete");
  });
});
