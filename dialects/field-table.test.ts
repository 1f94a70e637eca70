import { describe, expect, it } from "vitest";
import { REQUEST_ATTRIBUTES } from "./attributes.ts";
import { DIALECTS } from "./dialect.ts";
import { DIALECT_MODULES } from "./registry.ts";

describe("field tables", () => {
  it.each(DIALECTS)("%s: every request attribute has a row or an absent row", (dialect) => {
    const { rows, absent } = DIALECT_MODULES[dialect].fields;
    const covered = new Set<string>([
      ...rows.map((r) => r.attribute),
      ...absent.filter((a) => a.direction === "request").map((a) => a.subject),
    ]);
    expect(REQUEST_ATTRIBUTES.filter((a) => !covered.has(a))).toEqual([]);
  });

  it.each(DIALECTS)("%s: no attribute both carried and absent, no row twice", (dialect) => {
    const { rows, absent } = DIALECT_MODULES[dialect].fields;
    const carried = rows.filter((r) => !r.extension && !r.via).map((r) => r.attribute);
    expect(carried.length).toBe(new Set(carried).size);
    const both = absent.filter((a) => carried.includes(a.subject as never));
    expect(both.map((a) => a.subject)).toEqual([]);
  });

  it.each(DIALECTS)("%s: every row cites a page", (dialect) => {
    const { rows, absent } = DIALECT_MODULES[dialect].fields;
    for (const row of [...rows, ...absent]) expect(row.see).toMatch(/^https:\/\//);
  });
});
