/**
 * `gatecheck check EXCHANGE.json [--json]`: judge one recorded exchange, so anyone can paste
 * in traffic from their own gateway. Exit 0 when it judged (whatever it found), 2 when the
 * file cannot be used, with the path inside the file that is wrong.
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { ExchangeError, parseExchangeText } from "../../probes/exchange.ts";
import { judgeExchange } from "../../probes/lens/judge-exchange.ts";
import type { Verdict } from "../../probes/verdict.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import type { RegisterCommand } from "./index.ts";

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

async function check(file: string, options: { json?: boolean }): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message}`, EXIT.usage);
  }
  let verdicts: Verdict[];
  try {
    verdicts = judgeExchange(parseExchangeText(text, file));
  } catch (error) {
    if (error instanceof ExchangeError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
  process.stdout.write(
    options.json ? `${JSON.stringify(verdicts, null, 2)}\n` : renderVerdicts(verdicts),
  );
}

export const registerCheck: RegisterCommand = (program: Command) => {
  program
    .command("check")
    .description("judge one recorded exchange field by field (see docs/lens.md for the format)")
    .argument("<exchange>", "exchange JSON file")
    .option("--json", "print the verdicts as JSON")
    .action(check);
};
