/**
 * `gatecheck check FILE|DIR... [--json] [--fail-on VERDICTS]`: judge recorded traffic, so
 * anyone can bring it from their own gateway: exchange files, the mock's record files as they
 * are (one exchange per nonce), or folders of them. Exit 0 when it judged (whatever it found),
 * 1 when `--fail-on` names a verdict that was found, 2 when a file (or a line of a record
 * file) cannot be used, with the path inside it that is wrong. A file holding an exchange
 * chain (a multi-turn trace, loops/exchange-chain.ts) gets each turn's verdicts and those
 * across turns (loops/judge-chain.ts).
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { isSilentDefect, VERDICTS, type Verdict, type VerdictKind } from "../../probes/verdict.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { type ChainVerdicts, type Judged, judgeFile, verdictsOf } from "./check-file.ts";

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

/** What a folder stands for: its exchange files and its mock record files. */
const FOLDER_FILES = [".json", ".jsonl"];

/**
 * The files to judge: each argument that is a file, and the `*.json` and `*.jsonl` files of
 * each folder (sorted, not descending into subfolders). A folder with none is unusable input.
 */
async function filesOf(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const stats = await stat(path).catch(() => undefined);
    if (!stats?.isDirectory()) {
      files.push(path); // a missing file is reported by judgeFile with the rest
      continue;
    }
    const names = (await readdir(path))
      .filter((name) => FOLDER_FILES.some((ending) => name.endsWith(ending)))
      .sort();
    if (names.length === 0)
      throw new CliError(`${path}: a folder with no *.json exchange or *.jsonl record files`);
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

/** The cross-turn table of a chain: turn, subject, verdict, reason (with the cause). */
export function renderAcrossTurns(verdicts: ChainVerdicts["acrossTurns"]): string {
  const out = ["Across turns (the backend's side: what it said, what came back)"];
  const subjectWidth = Math.max(7, ...verdicts.map((v) => v.subject.length));
  const verdictWidth = Math.max(7, ...verdicts.map((v) => v.verdict.length));
  out.push(`turn  ${"subject".padEnd(subjectWidth)}  ${"verdict".padEnd(verdictWidth)}  reason`);
  for (const v of verdicts) {
    const cause = v.cause ? ` [${v.cause}]` : "";
    out.push(
      `${String(v.turn).padEnd(4)}  ${v.subject.padEnd(subjectWidth)}  ${v.verdict.padEnd(verdictWidth)}  ${v.reason}${cause}`,
    );
  }
  if (verdicts.length === 0) out.push("(no tool calls, signatures or reasoning to link)");
  return `${out.join("\n")}\n`;
}

/** A chain: each turn's table under `-- turn N`, then the cross-turn table. */
export function renderChain(chain: ChainVerdicts): string {
  const turns = chain.turns.map((verdicts, i) => `-- turn ${i + 1}\n${renderVerdicts(verdicts)}`);
  return `${turns.join("\n")}\n${renderAcrossTurns(chain.acrossTurns)}`;
}

/** The heading of one outcome: the file, and for a record file's exchange its nonce and records. */
function heading(judged: Judged): string {
  if (!("seqs" in judged)) return judged.file;
  const nonce = judged.nonce === undefined ? "no nonce" : `nonce ${judged.nonce}`;
  return `${judged.file} (${nonce}, record${judged.seqs.length === 1 ? "" : "s"} ${judged.seqs.join(", ")})`;
}

/** Judges the files and folders; `--fail-on` then decides between exit 0 and 1. */
export async function check(paths: string[], options: CheckOptions): Promise<void> {
  const failOn = options.failOn === undefined ? undefined : failOnVerdicts(options.failOn);
  const files = await filesOf(paths);
  const judged = await judgeAndPrint(files, paths, options);
  if (!failOn) return;
  const hits = judged.flatMap((one) => verdictsOf(one).filter((v) => failOn.has(v.verdict)));
  if (hits.length > 0) {
    const kinds = [...new Set(hits.map((v) => v.verdict))].join(", ");
    throw new CliError(`--fail-on: ${hits.length} verdict(s) found: ${kinds}`, EXIT.failed);
  }
}

/**
 * One exchange file named as a file: its table or its verdicts as JSON, exit 2 when unusable.
 * Otherwise (several files, a folder, a mock record file with one exchange per nonce): each
 * exchange's table under its heading as it is judged, or one JSON array of `{file, verdicts}`,
 * `{file, nonce?, seqs, verdicts}`, `{file, nonce?, seqs, skipped}` and `{file, error}`; an
 * unusable file, or a line of a record file that is not a record, is named on stderr and the
 * rest are still judged, then the exit is 2. A chain prints each turn's table and the
 * cross-turn one; as JSON `{turns, acrossTurns}` (with `file` among several). Returns every
 * outcome.
 */
async function judgeAndPrint(
  files: readonly string[],
  paths: readonly string[],
  options: CheckOptions,
): Promise<Judged[]> {
  const [first] = files;
  const oneNamed = files.length === 1 && first !== undefined && paths[0] === first;
  const results: Judged[] = [];
  const unusable = new Set<string>();
  for (const file of files) {
    const { record, judged, unjudged } = await judgeFile(file);
    const [one] = judged;
    if (oneNamed && !record && one) {
      // As before folders and record files: the table, or the verdicts array.
      if ("error" in one) throw new CliError(one.error, EXIT.usage);
      if ("verdicts" in one) {
        process.stdout.write(
          options.json
            ? `${JSON.stringify(one.verdicts, null, 2)}\n`
            : renderVerdicts(one.verdicts),
        );
        return [one];
      }
      if ("turns" in one) {
        const { turns, acrossTurns } = one;
        process.stdout.write(
          options.json ? `${JSON.stringify({ turns, acrossTurns }, null, 2)}\n` : renderChain(one),
        );
        return [one];
      }
    }
    for (const outcome of judged) {
      if ("error" in outcome) {
        unusable.add(file);
        process.stderr.write(`gatecheck: ${outcome.error}\n`);
      } else if (!options.json) {
        const body =
          "skipped" in outcome
            ? `left out: ${outcome.skipped}\n`
            : "turns" in outcome
              ? renderChain(outcome)
              : renderVerdicts(outcome.verdicts);
        process.stdout.write(`== ${heading(outcome)}\n${body}\n`);
      }
      results.push(outcome);
    }
    if (unjudged > 0 && !options.json)
      process.stdout.write(
        `${file}: ${unjudged} record${unjudged === 1 ? "" : "s"} in no exchange (model lists, requests without a nonce that are not generate requests)\n\n`,
      );
  }
  if (options.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  if (unusable.size > 0) {
    throw new CliError(
      `${unusable.size} of ${files.length} files could not be judged (wholly or in part)`,
      EXIT.usage,
    );
  }
  return results;
}
