import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CORPUS } from "../../probes/corpus/index.ts";
import { mergeProbes, parseProbeFile } from "../../probes/corpus/parse-probe-file.ts";
import type { Probe } from "../../probes/corpus/probe.ts";
import { KNOWN_FAILING } from "../../probes/self-check/known-failing.ts";
import { runSelfCheck, type SelfCheckReport } from "../../probes/self-check/self-check.ts";
import { CliError, EXIT } from "../exit-codes.ts";

export interface ProbeOptions {
  json?: boolean;
  probesDir?: string;
  filter?: string;
}

/** The built-in corpus plus every `*.json` file in `dir`; any bad file stops the command. */
export async function loadProbes(dir: string | undefined): Promise<Probe[]> {
  if (!dir) return [...CORPUS];
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  } catch (error) {
    throw new CliError(`--probes-dir ${dir}: ${(error as Error).message}`, EXIT.usage);
  }
  const files: { fileName: string; probes: Probe[] }[] = [];
  const errors: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const result = parseProbeFile(await readFile(path, "utf8"), path);
    if (result.ok) files.push({ fileName: path, probes: result.probes });
    else errors.push(...result.errors);
  }
  const merged = errors.length === 0 ? mergeProbes(CORPUS, files) : { ok: false as const, errors };
  if (!merged.ok) throw new CliError(merged.errors.join("\n"), EXIT.usage);
  return merged.probes;
}

/** The probes that came from `--probes-dir` files, not the built-in corpus. */
export function userProbesOf(probes: readonly Probe[]): Probe[] {
  const builtIn = new Set(CORPUS);
  return probes.filter((probe) => !builtIn.has(probe));
}

function knownIssuesText(probe: Probe): string {
  return (probe.knownIssues ?? [])
    .map((k) => {
      const versions = Array.isArray(k.versions) ? k.versions.join("|") : k.versions;
      const where = k.backends ? ` to ${k.backends.join("|")}` : "";
      return `${k.gateway}@${versions}${where}→${k.expect}${k.reproduced ? "" : " (cited)"}`;
    })
    .join("; ");
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function listProbes(probes: readonly Probe[], json: boolean): string {
  if (json) {
    const rows = probes.map((p) => ({
      id: p.id,
      client: p.client,
      axis: p.axis,
      field: p.field,
      severity: p.severity,
      modes: p.modes,
      ...(p.backends ? { backends: p.backends } : {}),
      knownIssues: p.knownIssues ?? [],
      note: p.note,
    }));
    return `${JSON.stringify(rows, null, 2)}\n`;
  }
  const header = ["ID", "CLIENT", "AXIS", "FIELD", "SEVERITY", "MODES", "KNOWN ISSUES"];
  const rows = probes.map((p) => [
    p.id,
    p.client,
    p.axis,
    p.field,
    p.severity,
    p.modes.join(","),
    knownIssuesText(p),
  ]);
  return `${table([header, ...rows])}\n${probes.length} probes\n`;
}

function checkText(report: SelfCheckReport): string {
  const lines: string[] = report.problems.map(
    (p) => `${p.probe} [${p.backend}, ${p.mode}] ${p.kind}: ${p.detail}`,
  );
  for (const id of report.failing) {
    const known = KNOWN_FAILING[id];
    lines.push(known ? `${id}: known (${known.owner}): ${known.why}` : `${id}: NEW failure`);
  }
  const summary =
    report.failing.length === 0
      ? `self-check: ${report.probes} probes, ${report.cells} cells, every checker can pass and fire`
      : `self-check: ${report.failing.length} of ${report.probes} probes failed (${report.problems.length} problems in ${report.cells} cells)`;
  return `${[...lines, summary].join("\n")}\n`;
}

function chosenProbes(all: readonly Probe[], filter: string | undefined): Probe[] {
  return filter ? all.filter((p) => p.id.includes(filter)) : [...all];
}

export async function listProbesAction(options: ProbeOptions): Promise<void> {
  const chosen = chosenProbes(await loadProbes(options.probesDir), options.filter);
  process.stdout.write(listProbes(chosen, options.json === true));
}

export async function checkProbesAction(options: ProbeOptions): Promise<void> {
  const chosen = chosenProbes(await loadProbes(options.probesDir), options.filter);
  const report = runSelfCheck(chosen);
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : checkText(report));
  if (report.failing.length > 0) {
    throw new CliError(`self-check failed: ${report.failing.join(", ")}`, EXIT.failed);
  }
}
