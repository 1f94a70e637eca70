/**
 * A record file read back: every line the mock writes is a record by the strict schema, equal
 * to what `records()` gave, and the records of one nonce make one exchange's backend side.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newNonce, startMock } from "./index.ts";
import { recordFileExchanges } from "./record-exchanges.ts";
import { parseRecordLines, RecordFileError } from "./record-schema.ts";
import { postJson } from "./test-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-record-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const chat = (text: string, extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: text }],
  ...extra,
});

describe("a mock record file read back", () => {
  it("holds the records the mock kept, and groups them into exchanges by nonce", async () => {
    const file = join(dir, "records.jsonl");
    const mock = await startMock({ recordFile: file });
    const [retried, streamed, lost] = [newNonce(), newNonce(), newNonce()];
    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz012345";
    await fetch(`${mock.url}/v1/models`).then((r) => r.text());
    for (let i = 0; i < 2; i++)
      await postJson(mock.url, "/v1/chat/completions", chat(`${retried} hi`), {
        authorization: `Bearer ${secret}`,
      }).then((r) => r.text());
    await postJson(mock.url, "/v1/messages", {
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      stream: true,
      messages: [{ role: "user", content: `${streamed} hi` }],
    }).then((r) => r.text());
    await postJson(mock.url, "/v1/chat/completions", chat("no nonce")).then((r) => r.text());
    await postJson(mock.url, "/v1/v1/chat/completions", chat(`${lost} hi`)).then((r) => r.text());
    const kept = mock.records();
    await mock.close();

    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(secret);
    const records = parseRecordLines(text, file);
    expect(records).toEqual(kept);

    const read = recordFileExchanges(records);
    expect(read.skipped).toBe(1);
    expect(read.exchanges.map((e) => [e.nonce, e.seqs])).toEqual([
      [retried, [2, 3]],
      [streamed, [4]],
      [undefined, [5]],
    ]);
    const [first, second] = read.exchanges;
    expect(first?.exchange).toMatchObject({
      route: { backend: "openai-chat" },
      mode: "non-stream",
      upstreamReply: { status: 200, body: { encoding: "utf8" } },
    });
    expect(first?.exchange.route.client).toBeUndefined();
    expect(first?.exchange.clientRequest).toBeUndefined();
    expect(first?.exchange.forwarded).toEqual([kept[1]?.request, kept[2]?.request]);
    expect(first?.exchange.timing?.forwarded).toHaveLength(2);
    expect(second?.exchange).toMatchObject({
      route: { backend: "anthropic-messages" },
      mode: "stream",
    });
    expect(read.unknown).toEqual([
      expect.objectContaining({ nonce: lost, seqs: [6], reason: expect.stringContaining("404") }),
    ]);
  });

  it("names the line and the path inside it that is not a record", () => {
    const good = {
      seq: 1,
      receivedAt: "2026-12-02T00:00:00.000Z",
      listener: "mock",
      request: {
        method: "GET",
        path: "/v1/models",
        headers: [],
        body: { data: "", encoding: "utf8" },
      },
      bodyBytes: 0,
      kind: "models",
      reply: { status: 200, staged: false, headers: [], body: { data: "{}", encoding: "utf8" } },
    };
    expect(parseRecordLines(`${JSON.stringify(good)}\n`, "r.jsonl")).toHaveLength(1);
    const run = (text: string) => () => parseRecordLines(text, "r.jsonl");
    expect(run(`${JSON.stringify(good)}\n{"seq":`)).toThrow(RecordFileError);
    expect(run(`${JSON.stringify(good)}\n{"seq":`)).toThrow(/^r\.jsonl line 2 is not JSON/);
    // A line in the format before the wire vocabulary (body text beside its encoding).
    const old = { ...good, request: { ...good.request, body: undefined }, rawBody: "" };
    expect(run(JSON.stringify(old))).toThrow(/r\.jsonl line 1 is not a mock record/);
    expect(run(JSON.stringify(old))).toThrow(/request\.body/);
    expect(run(JSON.stringify(old))).toThrow(/rawBody/);
  });
});
