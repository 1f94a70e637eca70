/**
 * Cited configuration: every value gatecheck writes for a gateway (a config file's line or
 * value, a launch flag, an environment variable, a routing header) carries the reference that
 * says a user of that gateway would write it so, because a matrix row is only as true as the
 * configuration behind it (docs/gateways.md, "Cited configuration").
 *
 * A reference is one of:
 * - a URL of the gateway's (or the provider's) documentation: `https://...`;
 * - the installed source: `<package>@<version> <path>[ (<what>)]`, read under
 *   `.gatecheck-cache/gateways/<name@version>/`;
 * - the rig's own reason, for a line no user would write (confinement to loopback, a log
 *   that would copy secrets): `gatecheck <doc path>`, always with a `choice` saying why.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";

/** A value with its reference; `choice` names the option taken, and why, where the docs leave it open. */
export class Cited<T = string> {
  constructor(
    readonly value: T,
    readonly ref: string,
    readonly choice?: string,
  ) {}
}

export function cited<T>(value: T, ref: string, choice?: string): Cited<T> {
  return new Cited(value, ref, choice);
}

/** A JSON config whose every leaf (or whole subtree) is cited. */
export type CitedJson =
  | Cited<unknown>
  | readonly CitedJson[]
  | { readonly [key: string]: CitedJson };

/** A config file: its lines (YAML, TOML), or a JSON document. */
export type CitedFile = { lines: readonly Cited[] } | { json: CitedJson };

/** Everything gatecheck writes for one column of a gateway, each value cited. */
export interface CitedConfig {
  /** Config files by path relative to the work folder. */
  files: Readonly<Record<string, CitedFile>>;
  /** The gateway's own launch arguments (after the program and our launcher's). */
  args: readonly Cited[];
  /** Environment variables set for the gateway. */
  env: Readonly<Record<string, Cited>>;
  /** Per route id, the headers that configure the gateway per request (Portkey's routing). */
  routeHeaders?: Readonly<Record<string, Readonly<Record<string, Cited>>>>;
}

const URL_REF = /^https?:\/\/\S+$/;
const SOURCE_REF = /^(@[\w.-]+\/)?[\w.-]+@\d[\w.+-]*\s+\S.*$/;
const RIG_REF = /^gatecheck\s+\S+/;

/** Why a reference is not one (undefined when it is). */
export function referenceProblem(c: Cited<unknown>): string | undefined {
  const ref = c.ref.trim();
  if (!ref) return "no reference";
  if (URL_REF.test(ref) || SOURCE_REF.test(ref)) return undefined;
  if (RIG_REF.test(ref)) return c.choice ? undefined : "a rig-only line must say why (choice)";
  return `"${ref}" is neither a URL, "<package>@<version> <path>" nor "gatecheck <doc>"`;
}

/** The plain value of a cited tree (what is written). */
export function plainJson(tree: CitedJson): unknown {
  if (tree instanceof Cited) return tree.value;
  if (Array.isArray(tree)) return tree.map(plainJson);
  return Object.fromEntries(
    Object.entries(tree as Record<string, CitedJson>).map(([k, v]) => [k, plainJson(v)]),
  );
}

/** Where in a cited tree a value stands without a citation, or with a bad one: `path: why`. */
export function uncited(tree: unknown, path = "$"): string[] {
  if (tree instanceof Cited) {
    const problem = referenceProblem(tree);
    return problem ? [`${path}: ${problem}`] : [];
  }
  if (Array.isArray(tree)) return tree.flatMap((v, i) => uncited(v, `${path}[${i}]`));
  if (tree !== null && typeof tree === "object") {
    return Object.entries(tree).flatMap(([k, v]) => uncited(v, `${path}.${k}`));
  }
  return [`${path}: ${JSON.stringify(tree)} is not cited`];
}

/** Every value of a column's config that is not cited as a reference must be. */
export function uncitedInConfig(config: CitedConfig): string[] {
  const files = Object.entries(config.files).flatMap(([name, file]) =>
    "lines" in file ? uncited(file.lines, name) : uncited(file.json, name),
  );
  return [
    ...files,
    ...uncited(config.args, "args"),
    ...uncited(config.env, "env"),
    ...uncited(config.routeHeaders ?? {}, "headers"),
  ];
}

/** The text of a cited file, as written. */
export function renderFile(file: CitedFile): string {
  if ("lines" in file) return `${file.lines.map((l) => l.value).join("\n")}\n`;
  return `${JSON.stringify(plainJson(file.json), null, 2)}\n`;
}

export const plainArgs = (args: readonly Cited[]): string[] => args.map((a) => a.value);

export const plainRecord = (record: Readonly<Record<string, Cited>>): Record<string, string> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v.value]));

/** Write a column's config files into its work folder; returns the absolute paths. */
export async function writeCitedFiles(workdir: string, config: CitedConfig): Promise<string[]> {
  const root = resolve(workdir);
  const written: string[] = [];
  for (const [name, file] of Object.entries(config.files)) {
    const path = resolve(join(root, name));
    if (relative(root, path).startsWith("..") || path === root) {
      throw new Error(`config file ${name} would be written outside ${root}`);
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, renderFile(file));
    written.push(path);
  }
  return written;
}
