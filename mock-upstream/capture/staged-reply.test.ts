import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startMock } from "../index.ts";
import { ReplySpec } from "../staged-reply-spec.ts";
import { decodeBytes } from "./exchange.ts";
import { loadCaptureFile } from "./replay-file.ts";
import { exchangeToReplySpec } from "./staged-reply.ts";
import { rawRequest } from "./test-support.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");

describe("a recording as a staged reply", () => {
  it("is a valid reply spec carrying the recorded bytes, gaps and ending", async () => {
    const [exchange] = await loadCaptureFile(join(FIXTURES, "anthropic-stream-reset.jsonl"));
    if (!exchange) throw new Error("fixture has no exchange");
    const spec = exchangeToReplySpec(exchange, { timeScale: 0.5 });
    const parsed = ReplySpec.safeParse(spec);
    expect(parsed.success, parsed.error?.message).toBe(true);
    expect(spec.body.frames.map((f) => Buffer.from(f.data, "base64").toString())).toEqual(
      exchange.frames.map((f) => decodeBytes(f).toString()),
    );
    expect(spec.body.frames.map((f) => f.delayMs)).toEqual([3.75, 60]);
    expect(spec.wire).toEqual({
      headersDelayMs: 6.25,
      end: "reset",
      endAfterBytes: exchange.frames.reduce((n, f) => n + decodeBytes(f).length, 0),
      transfer: "chunked",
    });
  });

  it("served by the mock for its nonce, gives the recorded chunks and drops the connection", async () => {
    const [exchange] = await loadCaptureFile(join(FIXTURES, "anthropic-stream-reset.jsonl"));
    if (!exchange) throw new Error("fixture has no exchange");
    const mock = await startMock();
    try {
      mock.stage({ match: { nonce: "gc-00000000000000a1" }, reply: exchangeToReplySpec(exchange) });
      const client = await rawRequest(mock.port, {
        path: "/v1/messages",
        headers: [["Content-Type", "application/json"]],
        body: JSON.stringify({
          model: "claude-sonnet-4-5",
          max_tokens: 16,
          messages: [{ role: "user", content: "gc-00000000000000a1 hi" }],
        }),
      });
      expect(client.status).toBe(200);
      expect(client.chunks.map((c) => c.payload.toString())).toEqual(
        exchange.frames.map((f) => decodeBytes(f).toString()),
      );
      expect(client.complete).toBe(false);
    } finally {
      await mock.close();
    }
  });
});
