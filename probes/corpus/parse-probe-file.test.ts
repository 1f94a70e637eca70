import { describe, expect, it } from "vitest";
import { CORPUS } from "./index.ts";
import { mergeProbes, parseProbeFile } from "./parse-probe-file.ts";

const good = {
  id: "oc-my-seed",
  client: "openai-chat",
  axis: "request",
  field: "seed",
  request: { seed: 7 },
  modes: ["non-stream"],
  severity: "low",
  note: "7 arrives as 7",
};

describe("parseProbeFile", () => {
  it("reads an array of probes and an object with a probes array", () => {
    const a = parseProbeFile(JSON.stringify([good]), "mine.json");
    expect(a).toEqual({ ok: true, probes: [good] });
    const b = parseProbeFile(JSON.stringify({ probes: [good] }), "mine.json");
    expect(b.ok && b.probes[0]?.id).toBe("oc-my-seed");
  });

  it("names the file and says what JSON it expected when the text does not parse", () => {
    const result = parseProbeFile('[{"id": ', "broken.json");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toMatch(/^broken\.json: \$: expected JSON/);
  });

  it("names the JSON path and the expected values of a bad field", () => {
    const bad = { ...good, axis: "sideways", upstream: { reply: { parts: [{ type: "txt" }] } } };
    const result = parseProbeFile(JSON.stringify({ probes: [good, bad] }), "p.json");
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    expect(
      errors.some((e) => e.startsWith("p.json: $.probes[1].axis: ") && e.includes("request")),
    ).toBe(true);
    expect(errors.some((e) => e.startsWith("p.json: $.probes[1].upstream"))).toBe(true);
  });

  it("rejects an id whose prefix is not its client's, and a duplicate id", () => {
    const wrongPrefix = parseProbeFile(JSON.stringify([{ ...good, id: "am-seed" }]), "f.json");
    expect(!wrongPrefix.ok && wrongPrefix.errors[0]).toMatch(/\$\[0\]\.id: .*"oc-"/);
    const dup = parseProbeFile(JSON.stringify([good, good]), "f.json");
    expect(!dup.ok && dup.errors[0]).toMatch(/\$\[1\]\.id: expected a unique id.*\$\[0\]/);
  });

  it("keeps nothing of a file with any bad probe", () => {
    const result = parseProbeFile(
      JSON.stringify([good, { ...good, id: "oc-x", modes: [] }]),
      "f.json",
    );
    expect(result.ok).toBe(false);
    expect("probes" in result).toBe(false);
  });

  it("rejects a shape that is not a probe list", () => {
    const result = parseProbeFile('{"probe": []}', "f.json");
    expect(!result.ok && result.errors[0]).toMatch(/expected an array of probes/);
  });
});

describe("mergeProbes", () => {
  it("refuses a user probe that reuses a built-in id, naming both owners", () => {
    const first = CORPUS[0];
    if (!first) throw new Error("empty corpus");
    const result = mergeProbes(CORPUS, [{ fileName: "u.json", probes: [{ ...first }] }]);
    expect(!result.ok && result.errors[0]).toBe(
      `u.json: probe "${first.id}": expected a new id, the built-in corpus has it`,
    );
  });

  it("appends new user probes after the corpus", () => {
    const result = mergeProbes(CORPUS, [{ fileName: "u.json", probes: [good as never] }]);
    expect(result.ok && result.probes.length).toBe(CORPUS.length + 1);
  });
});
