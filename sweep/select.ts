/**
 * What a sweep runs, from the command line's words: which gateway columns, which probes,
 * which modes. Pure: the adapters and probes are given.
 */
import { CLIENT_DIALECTS, type ClientDialect, type Mode } from "../dialects/dialect.ts";
import { type GatewayAdapter, type GatewaySpec, gatewayLabel } from "../gateways/adapter.ts";
import { findExecutable } from "../gateways/binary.ts";
import type { Probe } from "../probes/corpus/probe.ts";

export class SelectionError extends Error {
  override name = "SelectionError";
}

/** Sources gatecheck installs itself into the cache when a sweep needs them. */
const INSTALLED_ON_DEMAND: readonly GatewayAdapter["source"][] = ["npm", "pypi", "go"];

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
      INSTALLED_ON_DEMAND.includes(adapter.source) ||
      (adapter.source === "binary" && adapter.binary !== undefined && onPath(adapter.binary));
    // A reference gateway gatecheck cannot install stays a column: not-run, with the reason.
    if (!runnable && adapter.unavailable === undefined) continue;
    const base = { name: adapter.name, version: adapter.defaultVersion };
    columns.push({ adapter, spec: base });
    for (const variant of Object.keys(adapter.variants ?? {})) {
      columns.push({ adapter, spec: { ...base, variant } });
    }
  }
  return columns;
}

/**
 * `--attach NAME=URL[,NAME=URL]`: columns the user runs themselves (Bifrost, AxonHub, or
 * any gateway), attached instead of launched. A name already among the columns gets the
 * URL; another name becomes a column at its adapter's default version. The user's gateway
 * must already point at its column's mock, so that mock listens on a port known in
 * advance: `firstMockPort` for the first attached column, the next port for the next.
 */
export function withAttached(
  columns: readonly SweepColumnPick[],
  text: string,
  findAdapter: (name: string) => GatewayAdapter | undefined,
  firstMockPort = DEFAULT_ATTACHED_MOCK_PORT,
): SweepColumnPick[] {
  const out = columns.map((c) => ({ ...c }));
  let attached = 0;
  for (const item of text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = item.indexOf("=");
    const name = item.slice(0, at).trim();
    const url = item.slice(at + 1).trim();
    if (at <= 0 || !/^https?:\/\/[^\s/]+/.test(url)) {
      throw new SelectionError(
        `--attach takes NAME=URL pairs (e.g. axonhub=http://127.0.0.1:8090); got "${item}"`,
      );
    }
    let matching = out.filter((c) => c.spec.name === name || gatewayLabel(c.spec) === name);
    if (matching.length === 0) {
      const adapter = findAdapter(name);
      if (!adapter) throw new SelectionError(`--attach names an unknown gateway "${name}"`);
      matching = [{ adapter, spec: { name, version: adapter.defaultVersion } }];
      out.push(...matching);
    }
    for (const c of matching) {
      c.attachUrl = url;
      c.mockPort = firstMockPort + attached++;
    }
  }
  return out;
}

/**
 * One column per `name@version[+variant]`: a sweep that named one twice would store two
 * columns' cells under one label, so it is refused before anything is written.
 */
export function refuseDuplicateColumns<T extends { spec: GatewaySpec }>(
  columns: readonly T[],
): T[] {
  const seen = new Set<string>();
  for (const { spec } of columns) {
    const label = gatewayLabel(spec);
    if (seen.has(label)) {
      throw new SelectionError(
        `--gateways names ${label} twice; give each NAME@VERSION[+VARIANT] once (a version or variant apart is a column of its own)`,
      );
    }
    seen.add(label);
  }
  return [...columns];
}

/** The port `gatecheck mock` listens on by default: an attached gateway's mock listens there. */
export const DEFAULT_ATTACHED_MOCK_PORT = 9990;

interface SweepColumnPick {
  adapter: GatewayAdapter;
  spec: GatewaySpec;
  attachUrl?: string;
  mockPort?: number;
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
