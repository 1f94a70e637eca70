import { expect, it } from "vitest";
import { readSnapshotLine, snapshotLine } from "./verdict-snapshot-lines.ts";

it("reads back the key and payload of every kind it writes", () => {
  const attempt = snapshotLine(
    "attempt",
    ["run1", "litellm@1.96.2", "a->b", "p", "json", "probe", 1],
    '[{"v":"x y"}]',
  );
  expect(readSnapshotLine(attempt)).toEqual({
    kind: "attempt",
    key: "attempt run1 litellm@1.96.2 a->b p json probe 1",
    payload: '[{"v":"x y"}]',
  });
  const cell = snapshotLine(
    "cell",
    ["run1", "direct@0", "a->b", "p", "json"],
    "dropped the reason",
  );
  expect(readSnapshotLine(cell)).toMatchObject({
    key: "cell run1 direct@0 a->b p json",
    payload: "dropped the reason",
  });
  expect(readSnapshotLine(snapshotLine("fixture", ["probes/x.json"], "[]"))).toMatchObject({
    key: "fixture probes/x.json",
    payload: "[]",
  });
  expect(readSnapshotLine("# a comment")).toBeUndefined();
});

it("refuses a key word holding a space or the wrong number of words", () => {
  expect(() => snapshotLine("fixture", ["a b.json"], "[]")).toThrow(/without spaces/);
  expect(() => snapshotLine("cell", ["run1"], "x")).toThrow(/5 words/);
});
