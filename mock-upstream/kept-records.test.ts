/**
 * The recorder's columns against the plain way, a list of objects: every record pushed and
 * shifted, through growth and clear, reads back the same fields and line.
 */
import { describe, expect, it } from "vitest";
import { KeptRecords } from "./kept-records.ts";

interface Plain {
  ordinal: number;
  seq: number;
  nonce: string | undefined;
  slab: Buffer;
  start: number;
  end: number;
  size: number;
}

describe("kept records", () => {
  it("reads back what a list of objects holds, through growth, shifts and clears", () => {
    let state = 11;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    const slab = Buffer.from(Array.from({ length: 4000 }, (_, i) => `{"n":${i}}\n`).join(""));
    const kept = new KeptRecords();
    let plain: Plain[] = [];
    let grewTo = 0;
    const nonces = [undefined, "gc-00000000000000aa", "gc-ffffffff00000001", "probe-7", "é"];
    for (let step = 0; step < 20_000; step++) {
      // Mostly pushes at first, so the columns grow well past their first room of 1,024.
      const action = random(1000);
      if (action < (step < 5000 ? 900 : 500) || plain.length === 0) {
        const n = random(4000);
        const start = slab.indexOf(`{"n":${n}}`);
        const end = slab.indexOf("\n", start) + 1;
        const nonce = nonces[random(nonces.length)];
        const record = { seq: step, nonce, slab, start, end, size: end - start };
        const ordinal = kept.push(step, nonce, slab, start, end, end, undefined, end - start);
        plain.push({ ordinal, ...record });
      } else if (action < 999) {
        kept.shift();
        plain.shift();
      } else {
        kept.clear();
        plain = [];
      }
      expect(kept.count).toBe(plain.length);
      grewTo = Math.max(grewTo, plain.length);
      if (step % 97 !== 0) continue;
      for (const r of plain) {
        expect(kept.seq(r.ordinal)).toBe(r.seq);
        expect(kept.nonce(r.ordinal)).toBe(r.nonce);
        expect(kept.size(r.ordinal)).toBe(r.size);
        expect(kept.slab(r.ordinal)).toBe(r.slab);
        expect(kept.json(r.ordinal)).toBe(r.slab.toString("utf8", r.start, r.end - 1));
      }
      expect(kept.first).toBe(plain[0]?.ordinal ?? kept.next);
    }
    expect(grewTo).toBeGreaterThan(2048);
  });

  it("reads a line with a shared reply body spliced between its two parts", () => {
    const kept = new KeptRecords();
    const slab = Buffer.from('{"a":1,"body":,"z":2}\n');
    const bodyAt = slab.indexOf(",") + 8;
    const ordinal = kept.push(1, undefined, slab, 0, bodyAt, slab.length, Buffer.from('"b"'), 3);
    expect(kept.json(ordinal)).toBe('{"a":1,"body":"b","z":2}');
  });
});
