/**
 * What a sweep runs, from the command line's words: which gateway columns, which probes,
 * which modes. Pure: the adapters and probes are given.
 */
import { CLIENT_DIALECTS, type ClientDialect, type Mode } from "../dialects/dialect.ts";
import type { GatewayAdapter, GatewaySpec } from "../gateways/adapter.ts";
import { findExecutable } from "../gateways/binary.ts";
import type { Probe } from "../probes/corpus/probe.ts";

export class SelectionError extends Error {
  override name = "SelectionError";
}

/**
 * The default columns: every gateway runnable here at its pinned version (npm gateways,
 * binaries found on PATH), each install variant as a column of its own (Portkey's plain and
 * `+locked` installs differ in what streams), and `direct`, the rig's control column.
 * Attach-only gateways need a URL and are never a default.
 */
export function defaultColumns(
  adapters: readonly GatewayAdapter[],
  onPath: (binary: string) => boolean = (b) => findExecutable(b) !== undefined,
): { adapter: GatewayAdapter; spec: GatewaySpec }[] {
  const columns: { adapter: GatewayAdapter; spec: GatewaySpec }[] = [];
  for (const adapter of adapters) {
    const runnable =
      adapter.source === "none" ||
      adapter.source === "npm" ||
      (adapter.source === "binary" && adapter.binary !== undefined && onPath(adapter.binary));
    if (!runnable) continue;
    const base = { name: adapter.name, version: adapter.defaultVersion };
    columns.push({ adapter, spec: base });
    for (const variant of Object.keys(adapter.variants ?? {})) {
      columns.push({ adapter, spec: { ...base, variant } });
    }
  }
  return columns;
}

/** `*` and `?` globs on probe ids, comma-separated; a probe matching any is kept. */
export function probeGlob(patterns: string): (id: string) => boolean {
  const regexes = patterns
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .map(
      (p) =>
        new RegExp(
          `^${p
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replaceAll("*", ".*")
            .replaceAll("?", ".")}$`,
        ),
    );
  return (id) => regexes.some((r) => r.test(id));
}

export function parseList<T extends string>(
  text: string,
  allowed: readonly T[],
  flag: string,
): T[] {
  const items = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((i) => !(allowed as readonly string[]).includes(i));
  if (bad.length > 0 || items.length === 0) {
    throw new SelectionError(
      `${flag} takes a comma-separated list of ${allowed.join(", ")}; got "${text}"`,
    );
  }
  return items as T[];
}

export function selectProbes(
  probes: readonly Probe[],
  options: { glob?: string; dialects?: readonly ClientDialect[] },
): Probe[] {
  const matches = options.glob ? probeGlob(options.glob) : () => true;
  const selected = probes.filter(
    (p) => matches(p.id) && (options.dialects === undefined || options.dialects.includes(p.client)),
  );
  if (selected.length === 0) {
    throw new SelectionError(
      `no probe matches${options.glob ? ` --probes "${options.glob}"` : ""}${options.dialects ? ` in ${options.dialects.join(", ")}` : ""}; see \`gatecheck probes list\``,
    );
  }
  return selected;
}

export const MODES: readonly Mode[] = ["non-stream", "stream"];
export { CLIENT_DIALECTS };
