/**
 * A gateway's own logs under the run folder (`gateway.log`, and any `*.log` it writes into
 * its work folder, which is its HOME) are kept for the report, redacted: every key shape,
 * every canary, the sweep's route key. Done when the column ends, after the gateway stopped
 * writing; the mock's records are redacted as they are written and are left alone here.
 */
import { lstatSync, readdirSync, readFileSync, type Stats, writeFileSync } from "node:fs";
import { join } from "node:path";
import { redactText } from "../dialects/credentials.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";

function logFiles(dir: string): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    let stats: Stats;
    try {
      // Not followed: a link the gateway made in its HOME may point anywhere on the machine,
      // and a redaction written through it would rewrite a file outside the run folder.
      stats = lstatSync(path);
    } catch {
      continue;
    }
    if (stats.isDirectory()) out.push(...logFiles(path));
    else if (stats.isFile() && entry.endsWith(".log")) out.push(path);
  }
  return out;
}

/** Redacts every log file under `workdir` in place; returns the files it changed. */
export function redactGatewayLogs(workdir: string, secrets: readonly string[] = []): string[] {
  const changed: string[] = [];
  const extra = [...CANARY_VALUES, ...secrets];
  for (const file of logFiles(workdir)) {
    const text = readFileSync(file, "utf8");
    const redacted = redactText(text, extra);
    if (redacted !== text) {
      writeFileSync(file, redacted);
      changed.push(file);
    }
  }
  return changed;
}
