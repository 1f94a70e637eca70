import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CaptureWriter } from "./capture-writer.ts";
import type { Exchange } from "./exchange.ts";
import { parseCapture } from "./replay-file.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exchange = (id: string, size: number): Exchange => ({
  format: "gatecheck-capture/2",
  id,
  startedAt: "2026-11-30T02:00:00.000Z",
  upstream: "http://127.0.0.1:1/",
  request: {
    method: "POST",
    path: "/v1/messages",
    headers: [],
    body: { data: "{}", encoding: "utf8" },
  },
  reply: {
    status: 200,
    headers: [],
    body: { data: "x".repeat(size), encoding: "utf8" },
    headersAtMs: 1,
    frames: [{ atMs: 2, bytes: size }],
  },
  end: { kind: "complete", atMs: 2 },
});

describe("capture writer", () => {
  it("writes each exchange as one whole line, in order", async () => {
    const file = join(dir, "many.jsonl");
    const writer = new CaptureWriter(file);
    for (let i = 0; i < 50; i++) writer.append(exchange(`e${i}`, 16 * 1024));
    await writer.flush();
    const parsed = parseCapture(readFileSync(file, "utf8"), file);
    expect(parsed.map((e) => e.id)).toEqual(Array.from({ length: 50 }, (_, i) => `e${i}`));
  });

  it("reports a write it could not make, naming the file", async () => {
    const file = join(dir, "no-such-dir", "x.jsonl");
    const writer = new CaptureWriter(file);
    writer.append(exchange("lost", 1));
    await expect(writer.flush()).rejects.toMatchObject({ code: "write-failed" });
    await expect(writer.flush()).rejects.toThrow(
      /no-such-dir\/x\.jsonl: cannot append exchange lost/,
    );
  });
});
