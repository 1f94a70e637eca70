import { describe, expect, it } from "vitest";
import { redactJson } from "../dialects/credentials.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { probeHash } from "../probes/corpus/probe-hash.ts";
import { definitionHash, storedProbe } from "./cell-record.ts";

describe("storedProbe", () => {
  it("redacts every probe of the corpus exactly as redacting with every canary does", () => {
    let redacted = 0;
    for (const probe of CORPUS) {
      const full = redactJson(probe, CANARY_VALUES);
      expect(storedProbe(probe).definition, probe.id).toEqual(full);
      if (JSON.stringify(full) !== JSON.stringify(probe)) redacted += 1;
    }
    // The corpus plants canaries: the comparison above is not between untouched copies.
    expect(redacted).toBeGreaterThan(0);
  });

  it("keeps the definition hash of each probe, and a changed probe gets another", () => {
    for (const probe of CORPUS.slice(0, 20)) {
      expect(definitionHash(probe)).toBe(probeHash(probe));
      expect(definitionHash(probe)).toBe(definitionHash(probe));
    }
    const [first] = CORPUS;
    if (!first) throw new Error("empty corpus");
    const changed = { ...first, field: `${first.field}-changed` };
    expect(definitionHash(changed)).not.toBe(definitionHash(first));
  });
});
