import { describe, expect, it } from "vitest";
import { sameRendering, show, showChange } from "./describe.ts";
import { fixtureJsonFiles } from "./fixture-values.ts";

/** The rendering `show` promises: JSON, clipped to 60 characters with an ellipsis. */
function reference(value: unknown): string {
  const text = JSON.stringify(value) as string;
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

describe("show", () => {
  it("clips a long string exactly as clipping its whole JSON would, escapes and surrogates included", () => {
    const pieces = ["a", "\n", '"', "\\", "é", "😀", "\u0001", "\ud800", " ", "日"];
    for (let n = 55; n < 75; n++) {
      for (let shift = 0; shift < pieces.length; shift++) {
        let text = "";
        for (let i = 0; i < n; i++) text += pieces[(i * 7 + shift * (i % 3)) % pieces.length];
        expect(show(text), JSON.stringify(text)).toBe(reference(text));
      }
    }
  });

  it("shows absent, short values and structures whole", () => {
    expect(show(undefined)).toBe("absent");
    expect(show("STOPPROBE")).toBe('"STOPPROBE"');
    expect(show({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(show("x".repeat(58))).toBe(reference("x".repeat(58)));
  });

  it("shows structures as clipping their whole JSON would, at every length around the cut", () => {
    const pieces: unknown[] = ["a", 1.5, -0, null, true, undefined, "é😀\n", [], {}, Number.NaN];
    for (let n = 0; n < 40; n++) {
      const list: unknown[] = [];
      const record: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const piece = pieces[(i * 3 + n) % pieces.length];
        list.push(piece);
        record[i % 4 === 0 ? `${i}` : `k${i}\u2028`] = piece;
        record[`f${i}`] = () => i;
      }
      expect(show(list), `list of ${n}`).toBe(reference(list));
      expect(show(record), `record of ${n}`).toBe(reference(record));
      expect(show({ nested: { list, record } })).toBe(reference({ nested: { list, record } }));
    }
    const long = { text: `${"x".repeat(50)}😀${"y".repeat(50)}`, after: 1 };
    expect(show(long)).toBe(reference(long));
    const dated = { at: new Date(0), map: new Map([[1, 2]]), own: { toJSON: () => "own" } };
    expect(show(dated)).toBe(reference(dated));
    expect(show([{ toJSON: 1 }])).toBe(reference([{ toJSON: 1 }]));
    expect(show(Object.create(null))).toBe("{}");
  });

  it("shows every value inside the lens's fixtures as clipping its JSON would", () => {
    let values = 0;
    const visit = (value: unknown): void => {
      if (typeof value === "object" && value !== null) {
        expect(show(value)).toBe(reference(value));
        values += 1;
        for (const inner of Object.values(value)) visit(inner);
      }
    };
    for (const file of fixtureJsonFiles()) visit(file);
    expect(values).toBeGreaterThan(1000);
  });
});

/** A deep copy where one can be made (functions cannot), else the value itself. */
function copy(value: unknown): unknown {
  try {
    return typeof value === "object" && value !== null ? structuredClone(value) : value;
  } catch {
    return value;
  }
}

describe("sameRendering and showChange", () => {
  it("says two values render alike only where show gives the same text", () => {
    const values: unknown[] = [
      undefined,
      null,
      0,
      -0,
      1,
      Number.NaN,
      "a",
      "",
      true,
      [],
      {},
      ["a", 1],
      ["a", 1, undefined],
      { a: 1, b: [2] },
      { b: [2], a: 1 },
      { a: 1, b: [2], c: undefined },
      { a: new Date(0) },
      { toJSON: () => "x" },
      Object.assign(Object.create(null), { a: 1, b: [2] }),
      new Map([[1, 2]]),
    ];
    for (const a of values) {
      for (const b of values) {
        for (const [x, y] of [
          [a, b],
          [a, copy(b)],
        ]) {
          if (sameRendering(x, y)) expect(show(x), `${show(x)} / ${show(y)}`).toBe(show(y));
          expect(showChange(x, y)).toBe(`${show(x)} → ${show(y)}`);
        }
      }
    }
    expect(sameRendering({ a: 1, b: [2] }, { a: 1, b: [2] })).toBe(true);
    expect(sameRendering({ a: 1, b: [2] }, { b: [2], a: 1 })).toBe(false);
  });

  it("agrees with showing both sides for every pair of values inside the lens's fixtures", () => {
    const values: unknown[] = [];
    const visit = (value: unknown): void => {
      values.push(value);
      if (typeof value === "object" && value !== null)
        for (const v of Object.values(value)) visit(v);
    };
    for (const file of fixtureJsonFiles()) visit(file);
    let same = 0;
    for (let i = 1; i < values.length; i++) {
      const [a, b] = [values[i - 1], values[i]];
      for (const [x, y] of [
        [a, b],
        [b, structuredClone(b)],
      ]) {
        expect(showChange(x, y)).toBe(`${show(x)} → ${show(y)}`);
        if (sameRendering(x, y)) same += 1;
      }
    }
    expect(same).toBeGreaterThan(1000);
  });
});
