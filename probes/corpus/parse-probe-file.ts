/**
 * User probe files: the pure half. The caller reads the file (scripts/commands/probes.ts or
 * the sweep) and hands the text here; every problem comes back naming the file, the JSON
 * path inside it and what was expected, and nothing from a bad file is half-loaded.
 */
import type { z } from "zod";
import { tryParseJson } from "../../dialects/json.ts";
import { type Probe, probeSchema } from "./probe.ts";

export type ProbeFileResult = { ok: true; probes: Probe[] } | { ok: false; errors: string[] };

/** `$[2].upstream.reply.parts[0].type` from a zod path. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "$";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

function describe(fileName: string, issues: readonly z.core.$ZodIssue[], base: PropertyKey[]) {
  return issues.map(
    (issue) => `${fileName}: ${jsonPath([...base, ...issue.path])}: ${issue.message}`,
  );
}

/**
 * A probe file is a JSON array of probes, or an object `{ "probes": [...] }`. Ids must be
 * unique within the file; uniqueness against the built-in corpus is the caller's check
 * (`mergeProbes`), since only it knows both sets.
 */
export function parseProbeFile(text: string, fileName: string): ProbeFileResult {
  const parsed = tryParseJson(text);
  if (!parsed.ok) {
    return {
      ok: false,
      errors: [`${fileName}: $: expected JSON, got a parse error: ${parsed.error}`],
    };
  }
  const value = parsed.value;
  let list: unknown;
  let base: PropertyKey[] = [];
  if (Array.isArray(value)) list = value;
  else if (value && typeof value === "object" && "probes" in value) {
    list = (value as { probes: unknown }).probes;
    base = ["probes"];
  }
  if (!Array.isArray(list)) {
    return {
      ok: false,
      errors: [`${fileName}: $: expected an array of probes or an object with a "probes" array`],
    };
  }
  const errors: string[] = [];
  const probes: Probe[] = [];
  const seen = new Map<string, number>();
  list.forEach((entry, index) => {
    const result = probeSchema.safeParse(entry);
    if (!result.success) {
      errors.push(...describe(fileName, result.error.issues, [...base, index]));
      return;
    }
    const first = seen.get(result.data.id);
    if (first !== undefined) {
      errors.push(
        `${fileName}: ${jsonPath([...base, index, "id"])}: expected a unique id, "${result.data.id}" is also at ${jsonPath([...base, first])}`,
      );
      return;
    }
    seen.set(result.data.id, index);
    probes.push(result.data);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, probes };
}

/**
 * The built-in corpus plus user probes. A user probe may not reuse a built-in id: a changed
 * probe under an old id would be compared across runs as the same one.
 */
export function mergeProbes(
  builtIn: readonly Probe[],
  user: readonly { fileName: string; probes: readonly Probe[] }[],
): { ok: true; probes: Probe[] } | { ok: false; errors: string[] } {
  const owner = new Map<string, string>(builtIn.map((p) => [p.id, "the built-in corpus"]));
  const errors: string[] = [];
  const out = [...builtIn];
  for (const file of user) {
    for (const probe of file.probes) {
      const other = owner.get(probe.id);
      if (other) {
        errors.push(`${file.fileName}: probe "${probe.id}": expected a new id, ${other} has it`);
        continue;
      }
      owner.set(probe.id, file.fileName);
      out.push(probe);
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, probes: out };
}
