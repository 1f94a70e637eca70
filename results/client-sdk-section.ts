/**
 * The matrix's "what real clients see" section: per gateway column, how the official SDK of
 * the client dialect took the client responses (accepted, findings an agent would trip on),
 * and where the SDK and the lens read the same bytes differently, a rig problem to look at.
 * `clientSdkStatsOf` reads the stored attempts; `renderClientSdkSection` is pure.
 */
import type { ResultsStore } from "./store.ts";

export interface ClientSdkStats {
  column: string;
  /** Attempts whose client response the SDK was given. */
  attempts: number;
  accepted: number;
  /** Attempts with at least one client-sdk finding, and examples. */
  withFindings: number;
  findingExamples: string[];
  /** Attempts where the SDK and the lens disagree, and examples. */
  withDisagreements: number;
  disagreementExamples: string[];
}

interface StoredSdk {
  view?: { accepted?: boolean };
  findings?: string[];
  disagreements?: string[];
}

const EXAMPLES = 3;

export function clientSdkStatsOf(store: ResultsStore, runId: string): ClientSdkStats[] {
  const rows = store.db
    .prepare(
      `SELECT "column", probe_id, mode, client_sdk FROM attempts
       WHERE run_id = ? AND client_sdk IS NOT NULL ORDER BY "column", probe_id, mode`,
    )
    .all(runId) as { column: string; probe_id: string; mode: string; client_sdk: string }[];
  const byColumn = new Map<string, ClientSdkStats>();
  for (const row of rows) {
    let sdk: StoredSdk;
    try {
      sdk = JSON.parse(row.client_sdk) as StoredSdk;
    } catch {
      continue;
    }
    const stats = byColumn.get(row.column) ?? {
      column: row.column,
      attempts: 0,
      accepted: 0,
      withFindings: 0,
      findingExamples: [],
      withDisagreements: 0,
      disagreementExamples: [],
    };
    byColumn.set(row.column, stats);
    stats.attempts += 1;
    if (sdk.view?.accepted) stats.accepted += 1;
    const where = `${row.probe_id} (${row.mode})`;
    if (sdk.findings?.length) {
      stats.withFindings += 1;
      if (stats.findingExamples.length < EXAMPLES)
        stats.findingExamples.push(`${where}: ${sdk.findings[0]}`);
    }
    if (sdk.disagreements?.length) {
      stats.withDisagreements += 1;
      if (stats.disagreementExamples.length < EXAMPLES) {
        stats.disagreementExamples.push(`${where}: ${sdk.disagreements[0]}`);
      }
    }
  }
  return [...byColumn.values()];
}

export function renderClientSdkSection(stats: readonly ClientSdkStats[]): string[] {
  if (stats.length === 0) return [];
  const lines = [
    "## What real clients see",
    "",
    "Every client response was also parsed by the official SDK of its dialect (`openai`, `@anthropic-ai/sdk`, with their stream helpers). *Findings* are what an agent would trip on: a 2xx reply the SDK cannot read, tool arguments it cannot parse. *Disagreements* are replies the SDK and the lens read differently: a rig problem to look at, listed here and never hidden.",
    "",
    "| gateway | attempts | SDK accepted | with findings | SDK ≠ lens |",
    "|---|---|---|---|---|",
  ];
  for (const s of stats) {
    lines.push(
      `| ${s.column} | ${s.attempts} | ${s.accepted} | ${s.withFindings} | ${s.withDisagreements} |`,
    );
  }
  lines.push("");
  for (const s of stats) {
    for (const example of s.findingExamples) lines.push(`- finding, ${s.column}: ${example}`);
    for (const example of s.disagreementExamples)
      lines.push(`- SDK ≠ lens, ${s.column}: ${example}`);
  }
  lines.push("");
  return lines;
}
