import { describe, expect, it } from "vitest";
import { ANCHORS, hasKeyPrefix } from "./key-shape-scan-fast.ts";
import { KEY_PREFIX_ROWS, KEY_PREFIXES, KEY_SHAPE_TABLE, plantedExample } from "./key-shapes.ts";

/** A small deterministic generator: the same texts every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ORDINARY =
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;-_/"{}[]@#?\n\té';

/** Pieces of every prefix, so that random text comes near them often. */
const PIECES = [
  ...KEY_SHAPE_TABLE.flatMap((row) => {
    const planted = plantedExample(row);
    return [planted.slice(0, 3), planted.slice(0, 5), planted.slice(1, 6), planted.slice(-6)];
  }),
  ..."-_.:/@ ".split(""),
];

function randomText(next: () => number, length: number, pieces: boolean): string {
  let text = "";
  while (text.length < length) {
    text +=
      pieces && next() < 0.3
        ? (PIECES[Math.floor(next() * PIECES.length)] as string)
        : ORDINARY[Math.floor(next() * ORDINARY.length)];
  }
  return text;
}

function same(text: string): void {
  expect(hasKeyPrefix(text), JSON.stringify(text.slice(0, 200))).toBe(KEY_PREFIXES.test(text));
}

describe("the fast key-prefix scan", () => {
  it("finds every row's example planted at every offset of random text, as the expression does", () => {
    const next = random(1);
    const around = randomText(next, 300, false);
    for (const row of KEY_SHAPE_TABLE) {
      const planted = plantedExample(row);
      for (let at = 0; at <= around.length; at++) {
        const text = around.slice(0, at) + planted + around.slice(at);
        expect(hasKeyPrefix(text), `${row.provider} at ${at}`).toBe(true);
        same(text);
      }
    }
  });

  it("finds every row's prefix alone, short and long, as the expression does", () => {
    for (const row of KEY_SHAPE_TABLE) {
      const planted = plantedExample(row);
      for (const text of [planted, `x${planted}`, `${planted}${" ".repeat(200)}`]) same(text);
    }
  });

  it("answers as the expression on random texts near the prefixes", () => {
    const next = random(2);
    for (let i = 0; i < 20_000; i++) {
      same(randomText(next, Math.floor(next() * 400), true));
    }
  });

  it("answers as the expression on ordinary and hostile texts", () => {
    const texts = [
      "",
      "-",
      "_",
      ".",
      '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say hello. gc-5ba7ed00"}]}',
      `${"Answer in one short sentence. ".repeat(40)}`,
      `${"-_.".repeat(5_000)}sk-`,
      `${"k".repeat(300)}-`,
      `${"ey".repeat(300)}J`,
      `${"A".repeat(300)}KIA`,
      `${"secret_access_".repeat(100)}key`,
      `${":/".repeat(300)}//u:p@h`,
      `${"Bearer".repeat(100)}\t`,
      `${"é".repeat(300)}sk-`,
      `${"é".repeat(300)}-`,
      `${"-----BEGI".repeat(50)}N`,
    ];
    for (const text of texts) same(text);
  });

  it("has literals for every prefix that does not end in a separator", () => {
    // A prefix with none is searched whole: correct, but as slow as the one expression.
    for (const prefix of KEY_PREFIX_ROWS.others) expect(Object.keys(ANCHORS)).toContain(prefix);
  });
});
