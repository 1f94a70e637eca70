/**
 * A probe's definition hash: the results database stores it beside the id, so a probe whose
 * definition changed is never compared across runs as the same one. Keys are sorted at every
 * depth, so reordering a literal's keys does not change the hash; any value change does.
 */
import { createHash } from "node:crypto";
import { stableStringify } from "../../dialects/json.ts";
import type { Probe } from "./probe.ts";

export function probeHash(probe: Probe): string {
  return createHash("sha256").update(stableStringify(probe)).digest("hex").slice(0, 16);
}
