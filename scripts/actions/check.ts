/**
 * `gatecheck check EXCHANGE.json... [--json]`: judge recorded exchanges, so anyone can paste
 * in traffic from their own gateway. Exit 0 when it judged (whatever it found), 2 when a
 * file cannot be used, with the path inside the file that is wrong.
 */
import { readFile } from "node:fs/promises";
import { ExchangeError, parseExchangeText } from "../../probes/exchange.ts";
import { judgeExchange } from "../../probes/lens/judge-exchange.ts";
import type { Verdict } from "../../probes/verdict.ts";
import { CliError, EXIT } from "../exit-codes.ts";

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

/**
 * One file: its table or its verdicts as JSON, exit 2 when unusable. Several files (a folder
 * of recorded traffic, judged in one start-up): each file's table under its name as it is
 * judged, or one JSON array of `{file, verdicts}` / `{file, error}`; an unusable file is
 * named on stderr and the rest are still judged, then the exit is 2.
 */
export async function check(files: string[], options: { json?: boolean }): Promise<void> {
  const [first] = files;
  if (files.length === 1 && first !== undefined) {
    const only = await judgeFile(first);
    if ("error" in only) throw new CliError(only.error, EXIT.usage);
    process.stdout.write(
      options.json ? `${JSON.stringify(only.verdicts, null, 2)}\n` : renderVerdicts(only.verdicts),
    );
    return;
  }
  const results: Judged[] = [];
  let unusable = 0;
  for (const file of files) {
    const judged = await judgeFile(file);
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
}
