/**
 * Lines kept as UTF-8 in slabs (line-slab.ts) against the lines themselves: what the record
 * file gets and what `records()` gives back are the lines, byte for byte, across slab ends,
 * for non-ASCII text, for a line too large for a slab, and for a line whose reply body is
 * shared; the memory limit counts the bytes.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LineSlab, ownCopy, SLAB_BYTES } from "./line-slab.ts";
import type { MockRecord } from "./record.ts";
import { Recorder } from "./recorder.ts";

function record(seq: number, text: string, nonce?: string): MockRecord {
  return {
    seq,
    receivedAt: "2026-12-02T06:00:00.000Z",
    listener: "mock",
    request: {
      method: "POST",
      path: "/v1/chat/completions",
      headers: [["content-type", "application/json"]],
      body: { data: JSON.stringify({ text }), encoding: "utf8" },
    },
    bodyBytes: text.length,
    ...(nonce ? { nonce } : {}),
    reply: { status: 200, staged: false, headers: [], body: { data: text, encoding: "utf8" } },
  };
}

/** Texts of every kind: ASCII, Latin-1, three-byte, astral (four-byte) and escaped. */
const TEXTS = ["plain", "Grüße ü", "中文字符", "🙂 emoji 🙂", 'quote " and \\ and \n', "\u0000"];

describe("lines kept in slabs", () => {
  it("writes and reads back every line byte for byte, across many slabs", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gatecheck-slab-"));
    try {
      const file = join(dir, "r.jsonl");
      const recorder = new Recorder(file);
      const records: MockRecord[] = [];
      // About 5 KB a line: 1,000 lines fill several slabs, so lines end at every slab's end.
      for (let seq = 1; seq <= 1000; seq++) {
        const text = `${TEXTS[seq % TEXTS.length]} ${"x".repeat(seq % 7)}`.repeat(300);
        records.push(
          record(seq, text, seq % 3 ? `gc-${String(seq % 5).padStart(16, "0")}` : undefined),
        );
      }
      // One line larger than a quarter slab gets a buffer of its own, between small ones.
      records.push(record(1001, "ü".repeat(SLAB_BYTES / 2)));
      records.push(record(1002, "after the large one"));
      // Lines whose reply body is spliced in as shared bytes (record-line.ts).
      const shared = "data: 🙂\n\n".repeat(400);
      const sharedJson = Buffer.from(JSON.stringify(shared));
      for (let seq = 1003; seq <= 1010; seq++) records.push(record(seq, shared));
      for (const r of records) {
        recorder.add(r, r.reply.body.data === shared ? sharedJson : undefined);
      }
      expect(recorder.list()).toEqual(records);
      expect(recorder.listJson()).toBe(JSON.stringify(records));
      const nonce = "gc-0000000000000001";
      expect(recorder.list({ nonce })).toEqual(records.filter((r) => r.nonce === nonce));
      await recorder.close();
      expect(readFileSync(file, "utf8")).toBe(
        records.map((r) => `${JSON.stringify(r)}\n`).join(""),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("counts the memory limit in UTF-8 bytes", () => {
    const one = Buffer.byteLength(`${JSON.stringify(record(1, "中文"))}\n`);
    const recorder = new Recorder(undefined, { maxBytes: 2 * one });
    for (const seq of [1, 2, 3]) recorder.add(record(seq, "中文"));
    expect(recorder.list().map((r) => r.seq)).toEqual([2, 3]);
  });

  it("puts two texts in one slab, and starts a new slab only when they do not fit", () => {
    const slab = new LineSlab();
    slab.reserve("a", "b");
    const first = slab.slab;
    expect(first.length).toBe(SLAB_BYTES);
    slab.write("a");
    slab.write("b");
    // Counted at 3 bytes a unit this would not fit; its real size does.
    const fits = "x".repeat(Math.floor((SLAB_BYTES - 2) / 2));
    slab.reserve(fits);
    expect(slab.slab).toBe(first);
    slab.write(fits);
    slab.reserve("ü".repeat(SLAB_BYTES));
    expect(slab.slab).not.toBe(first);
    expect(slab.slab.length).toBe(2 * SLAB_BYTES);
  });

  it("writes into a slab given back when a new one is needed, not into the current one", () => {
    const slab = new LineSlab();
    slab.reserve("a");
    const first = slab.slab;
    slab.write("a");
    slab.reuse(first); // the current slab is never given back
    slab.reserve("x".repeat(SLAB_BYTES));
    slab.write("x".repeat(SLAB_BYTES));
    slab.reuse(first);
    slab.reuse(Buffer.allocUnsafe(SLAB_BYTES / 2)); // not a slab's size: left to the collector
    slab.reserve("b");
    expect(slab.slab).toBe(first);
  });

  it("reuses emptied slabs with the file and readers byte for byte right", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gatecheck-slab-"));
    try {
      const file = join(dir, "r.jsonl");
      // About 2 KB a line, 300 kept: a slab empties every ~500 lines.
      const recorder = new Recorder(file, { maxRecords: 300 });
      const all: MockRecord[] = [];
      const add = (seq: number) => {
        const r = record(seq, `${TEXTS[seq % TEXTS.length]} ${seq} `.repeat(80));
        all.push(r);
        recorder.add(r);
      };
      let seq = 0;
      while (seq < 600) add(++seq);
      recorder.flush();
      // A reader takes the kept records a piece at a time while thousands more are recorded
      // and forgotten (and their slabs emptied and written again) between its pieces.
      const kept = all.slice(-300);
      const pieces = recorder.listJsonChunks({}, 4096);
      let text = pieces.next().value as string;
      for (let turn = 0; turn < 20; turn++) {
        for (let n = 0; n < 300; n++) add(++seq);
        recorder.flush(); // the end of a turn: its lines are in the file
        const next = pieces.next();
        if (!next.done) text += next.value;
      }
      for (let next = pieces.next(); !next.done; next = pieces.next()) text += next.value;
      expect(JSON.parse(text)).toEqual(kept);
      // Once nobody reads, slabs are reused; what is kept and the file stay exact.
      for (let n = 0; n < 3000; n++) add(++seq);
      expect(recorder.list()).toEqual(all.slice(-300));
      await recorder.close();
      expect(readFileSync(file, "utf8")).toBe(all.map((r) => `${JSON.stringify(r)}\n`).join(""));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("copies a nonce out of the text it was found in", () => {
    const text = `{"content":"hello gc-0123456789abcdef"}`;
    const at = text.indexOf("gc-");
    const nonce = text.slice(at, at + 19);
    expect(ownCopy(nonce)).toBe("gc-0123456789abcdef");
  });
});
