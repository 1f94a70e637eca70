import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startMock } from "../index.ts";
import { ReplySpec, StagedReplySpec } from "../staged-reply-spec.ts";
import { replyFrames } from "./exchange.ts";
import { loadCaptureFile } from "./replay-file.ts";
import { exchangeToReplySpec, replayStages } from "./staged-reply.ts";
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
      replyFrames(exchange.reply).map((f) => f.bytes.toString()),
    );
    expect(spec.body.frames.map((f) => f.delayMs)).toEqual([3.75, 60]);
    expect(spec.wire).toEqual({
      headersDelayMs: 6.25,
      end: "reset",
      endAfterBytes: exchange.reply.frames.reduce((n, f) => n + f.bytes, 0),
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
        replyFrames(exchange.reply).map((f) => f.bytes.toString()),
      );
      expect(client.complete).toBe(false);
    } finally {
      await mock.close();
    }
  });

  it("a whole capture file stages by nonce, then model and path, then path", async () => {
    const exchanges = await loadCaptureFile(join(FIXTURES, "three-exchanges.jsonl"));
    const stages = replayStages(exchanges);
    expect(stages.map((s) => s.match)).toEqual([
      { nonce: "gc-00000000000000aa" },
      { model: "gpt-4o-mini", path: "/v1/chat/completions" },
      { model: "claude-sonnet-4-5", path: "/v1/messages" },
    ]);
    for (const stage of stages) expect(StagedReplySpec.safeParse(stage).success).toBe(true);
    const mock = await startMock();
    try {
      mock.stage(stages);
      const ask = (model: string, text: string) =>
        rawRequest(mock.port, {
          path: "/v1/chat/completions",
          headers: [["Content-Type", "application/json"]],
          body: JSON.stringify({ model, messages: [{ role: "user", content: text }] }),
        });
      expect((await ask("gpt-4o", "gc-00000000000000aa")).body.toString()).toBe('{"ex":"a"}');
      expect((await ask("gpt-4o-mini", "hello")).body.toString()).toBe('{"ex":"b"}');
      const records = mock.records();
      expect(records.map((r) => r.reply.staged)).toEqual([true, true]);
    } finally {
      await mock.close();
    }
  });
});
