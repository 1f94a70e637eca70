/**
 * `gatecheck check EXCHANGE.json|DIR... [--json] [--fail-on VERDICTS]`: judge recorded
 * exchanges, so anyone can paste in traffic from their own gateway. Exit 0 when it judged
 * (whatever it found), 1 when `--fail-on` names a verdict that was found, 2 when a file
 * cannot be used, with the path inside the file that is wrong.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { ExchangeError, parseExchangeText } from "../../probes/exchange.ts";
import { judgeExchange } from "../../probes/lens/judge-exchange.ts";
import { isSilentDefect, VERDICTS, type Verdict, type VerdictKind } from "../../probes/verdict.ts";
import { CliError, EXIT } from "../exit-codes.ts";

export interface CheckOptions {
  json?: boolean;
  failOn?: string;
}

/** `--fail-on`: verdict names, and `silent` for every silent defect. */
export function failOnVerdicts(text: string): Set<VerdictKind> {
  const chosen = new Set<VerdictKind>();
  for (const word of text
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean)) {
    if (word === "silent") {
      for (const v of VERDICTS) if (isSilentDefect(v)) chosen.add(v);
    } else if ((VERDICTS as readonly string[]).includes(word)) {
      chosen.add(word as VerdictKind);
    } else {
      throw new CliError(
        `--fail-on: unknown verdict "${word}"; known: ${VERDICTS.join(", ")}, silent`,
      );
    }
  }
  if (chosen.size === 0) throw new CliError("--fail-on takes at least one verdict");
  return chosen;
}

/**
 * The files to judge: each argument that is a file, and the `*.json` files of each folder
 * (sorted, not descending into subfolders). A folder with none is unusable input.
 */
async function filesOf(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const stats = await stat(path).catch(() => undefined);
    if (!stats?.isDirectory()) {
      files.push(path); // a missing file is reported by judgeFile with the rest
      continue;
    }
    const names = (await readdir(path)).filter((name) => name.endsWith(".json")).sort();
    if (names.length === 0) throw new CliError(`${path}: a folder with no *.json exchange files`);
    files.push(...names.map((name) => join(path, name)));
  }
  return files;
}

/** The human table: field, verdict, reason (with the cause where there is one), by direction. */
export function renderVerdicts(verdicts: readonly Verdict[]): string {
  const out: string[] = [];
  for (const direction of ["request", "reply"] as const) {
    const rows = verdicts.filter((v) => (v.direction ?? "request") === direction);
    if (rows.length === 0) continue;
    const fieldWidth = Math.max(5, ...rows.map((v) => v.field.length));
    const verdictWidth = Math.max(7, ...rows.map((v) => v.verdict.length));
    out.push(
      `${direction === "request" ? "Request (client → backend)" : "Reply (upstream → client)"}`,
    );
    out.push(`${"field".padEnd(fieldWidth)}  ${"verdict".padEnd(verdictWidth)}  reason`);
    for (const v of rows) {
      const cause = v.cause ? ` [${v.cause}]` : "";
      // The reason starts with the field name for use elsewhere; the table has a column for it.
      const reason = v.reason.startsWith(`${v.field}: `)
        ? v.reason.slice(v.field.length + 2)
        : v.reason;
      out.push(
        `${v.field.padEnd(fieldWidth)}  ${v.verdict.padEnd(verdictWidth)}  ${reason}${cause}`,
      );
    }
    out.push("");
  }
  const counts = new Map<string, number>();
  for (const v of verdicts) counts.set(v.verdict, (counts.get(v.verdict) ?? 0) + 1);
  out.push([...counts].map(([k, n]) => `${n} ${k}`).join(", ") || "no verdicts");
  return `${out.join("\n")}\n`;
}

/** One file's outcome: its verdicts, or why the file could not be used. */
type Judged = { file: string; verdicts: Verdict[] } | { file: string; error: string };

async function judgeFile(file: string): Promise<Judged> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return { file, error: `${file}: ${(error as Error).message}` };
  }
  try {
    return { file, verdicts: judgeExchange(parseExchangeText(text, file)) };
  } catch (error) {
    if (error instanceof ExchangeError) return { file, error: error.message };
    throw error;
  }
}

/** Judges the files and folders; `--fail-on` then decides between exit 0 and 1. */
export async function check(paths: string[], options: CheckOptions): Promise<void> {
  const failOn = options.failOn === undefined ? undefined : failOnVerdicts(options.failOn);
  const files = await filesOf(paths);
  const judged = await judgeAndPrint(files, paths, options);
  if (!failOn) return;
  const hits = judged.flatMap((verdicts) => verdicts.filter((v) => failOn.has(v.verdict)));
  if (hits.length > 0) {
    const kinds = [...new Set(hits.map((v) => v.verdict))].join(", ");
    throw new CliError(`--fail-on: ${hits.length} verdict(s) found: ${kinds}`, EXIT.failed);
  }
}

/**
 * One file: its table or its verdicts as JSON, exit 2 when unusable. Several files (a folder
 * of recorded traffic, judged in one start-up): each file's table under its name as it is
 * judged, or one JSON array of `{file, verdicts}` / `{file, error}`; an unusable file is
 * named on stderr and the rest are still judged, then the exit is 2.
 * Returns each usable file's verdicts.
 */
async function judgeAndPrint(
  files: readonly string[],
  paths: readonly string[],
  options: CheckOptions,
): Promise<Verdict[][]> {
  const [first] = files;
  // One file named as a file: its table or its verdicts array, as before folders existed.
  if (files.length === 1 && first !== undefined && paths[0] === first) {
    const only = await judgeFile(first);
    if ("error" in only) throw new CliError(only.error, EXIT.usage);
    process.stdout.write(
      options.json ? `${JSON.stringify(only.verdicts, null, 2)}\n` : renderVerdicts(only.verdicts),
    );
    return [only.verdicts];
  }
  const results: Judged[] = [];
  const judgedVerdicts: Verdict[][] = [];
  let unusable = 0;
  for (const file of files) {
    const judged = await judgeFile(file);
    if (!("error" in judged)) judgedVerdicts.push(judged.verdicts);
    if ("error" in judged) {
      unusable++;
      process.stderr.write(`gatecheck: ${judged.error}\n`);
    } else if (!options.json) {
      process.stdout.write(`== ${judged.file}\n${renderVerdicts(judged.verdicts)}\n`);
    }
    if (options.json) results.push(judged);
  }
  if (options.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  if (unusable > 0) {
    throw new CliError(`${unusable} of ${files.length} files could not be judged`, EXIT.usage);
  }
  return judgedVerdicts;
}
