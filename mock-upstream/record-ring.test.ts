/**
 * The packed ring (record-ring-packed.ts) against the plain one (record-ring.ts): the same
 * sequence of pushes, evictions and clears gives the same records for every filter, with
 * fresh nonces, one shared nonce, nonces of another shape, records out of `seq` order, and
 * through the packed ring's growth and its nonce table's resizing.
 */
import { describe, expect, it } from "vitest";
import { type KeptLine, PlainRecordRing, type RecordRing } from "./record-ring.ts";
import { PackedRecordRing } from "./record-ring-packed.ts";

const SLABS: Buffer[] = [Buffer.from("slab-a"), Buffer.from("slab-b")];
const BODY = Buffer.from("shared body");

/** What a selection says, comparable across the two rings. */
function view(lines: KeptLine[]) {
  return lines.map((l) => [
    l.seq,
    SLABS.indexOf(l.slab),
    l.start,
    l.bodyAt,
    l.end,
    l.body === BODY,
  ]);
}

/** A deterministic pseudo-random source. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

const hex = (n: number) => n.toString(16).padStart(16, "0");

/** Run the same operations on both rings, comparing them as it goes. */
function compare(
  ops: number,
  seed: number,
  pickNonce: (r: () => number, i: number) => string | undefined,
  limit: number,
) {
  const plain: RecordRing = new PlainRecordRing();
  const packed: RecordRing = new PackedRecordRing();
  const r = random(seed);
  const seen = new Set<string>();
  let seq = 0;
  let most = 0;
  for (let i = 0; i < ops; i++) {
    const op = r();
    if (i === Math.floor(ops * 0.6)) {
      plain.clear();
      packed.clear();
    } else if (op < 0.35 && plain.count > 0) {
      plain.dropOldest();
      packed.dropOldest();
    } else {
      // Now and then a record kept out of arrival order.
      seq += 1;
      const s = r() < 0.05 ? seq + 2 : seq;
      const nonce = pickNonce(r, i);
      if (nonce) seen.add(nonce);
      const args = [
        s,
        nonce,
        SLABS[i % 2] as Buffer,
        i,
        i + 3,
        i + 5,
        i % 7 ? undefined : BODY,
        10 + (i % 13),
      ] as const;
      plain.push(...args);
      packed.push(...args);
      while (plain.count > limit) {
        plain.dropOldest();
        packed.dropOldest();
      }
    }
    expect(packed.count).toBe(plain.count);
    most = Math.max(most, packed.count);
    expect(packed.keptSize).toBe(plain.keptSize);
    if (i % 97 === 0 || i === ops - 1) {
      const since = Math.floor(seq * r());
      expect(view(packed.select(undefined, 0))).toEqual(view(plain.select(undefined, 0)));
      expect(view(packed.select(undefined, since))).toEqual(view(plain.select(undefined, since)));
      for (const nonce of [...seen].slice(-20)) {
        expect(view(packed.select(nonce, 0)), nonce).toEqual(view(plain.select(nonce, 0)));
        expect(view(packed.select(nonce, since))).toEqual(view(plain.select(nonce, since)));
      }
    }
  }
  return most;
}

describe("packed record ring", () => {
  it("answers as the plain ring with a fresh nonce per record, past growth and table resizes", () => {
    const most = compare(
      12_000,
      1,
      (r, i) => (r() < 0.1 ? undefined : `gc-${hex(i * 7919)}`),
      5000,
    );
    // Past the ring's first 1,024 slots and the nonce table's first 512 entries.
    expect(most).toBeGreaterThan(1024);
  });

  it("answers as the plain ring with one shared nonce and a few others", () => {
    const nonces = [
      "gc-5ba7ed0000000001",
      "gc-ffffffffffffffff",
      "gc-0000000000000000",
      "gc-80000000abcdef01",
    ];
    compare(8000, 2, (r) => (r() < 0.2 ? undefined : nonces[Math.floor(r() * r() * 4)]), 3000);
  });

  it("answers as the plain ring for nonces not of the nonce's shape", () => {
    const odd = [
      "GC-5BA7ED0000000001",
      "gc-5ba7ed00000000011",
      "gc-xyz",
      "",
      "gc-5ba7ed000000000g",
    ];
    compare(3000, 3, (r, i) => (r() < 0.5 ? odd[i % odd.length] : `gc-${hex(i % 50)}`), 400);
  });

  it("finds nothing for a nonce it never kept, and nothing after clear", () => {
    const packed = new PackedRecordRing();
    packed.push(1, "gc-0000000000000001", SLABS[0] as Buffer, 0, 1, 1, undefined, 1);
    expect(packed.select("gc-0000000000000002", 0)).toEqual([]);
    expect(packed.select("gc-000000000000000", 0)).toEqual([]);
    expect(packed.select("gc-0000000000000001", 0)).toHaveLength(1);
    packed.clear();
    expect(packed.count).toBe(0);
    expect(packed.select("gc-0000000000000001", 0)).toEqual([]);
    expect(packed.select(undefined, 0)).toEqual([]);
  });

  it("keeps no reference to a forgotten record's slab or body", () => {
    const packed = new PackedRecordRing();
    const slab = Buffer.from("a slab");
    packed.push(1, "gc-0000000000000001", slab, 0, 1, 1, BODY, 1);
    packed.push(2, undefined, SLABS[0] as Buffer, 0, 1, 1, undefined, 1);
    packed.dropOldest();
    // Read through the ring's own selection: only the newer record is there.
    expect(view(packed.select(undefined, 0))).toEqual([[2, 0, 0, 1, 1, false]]);
    expect(packed.select("gc-0000000000000001", 0)).toEqual([]);
  });
});
