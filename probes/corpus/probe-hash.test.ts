import { describe, expect, it } from "vitest";
import { CORPUS } from "./index.ts";
import type { Probe } from "./probe.ts";
import { probeHash } from "./probe-hash.ts";

const probe: Probe = {
  id: "oc-seed",
  client: "openai-chat",
  axis: "request",
  field: "seed",
  request: { seed: 1, n: 1 },
  modes: ["non-stream"],
  severity: "low",
  note: "1 arrives as 1",
};

describe("probeHash", () => {
  it("ignores key order and changes with any value", () => {
    const { note, ...rest } = probe;
    const reordered: Probe = { note, ...rest, request: { n: 1, seed: 1 } };
    expect(probeHash(reordered)).toBe(probeHash(probe));
    expect(probeHash({ ...probe, request: { seed: 2, n: 1 } })).not.toBe(probeHash(probe));
    expect(probeHash(probe)).toMatch(/^[0-9a-f]{16}$/);
  });

  it("is distinct for every probe of the corpus", () => {
    const hashes = new Set(CORPUS.map(probeHash));
    expect(hashes.size).toBe(CORPUS.length);
  });
});
