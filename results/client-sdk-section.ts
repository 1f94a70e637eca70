/**
 * The matrix's "what real clients see" section: per gateway column, how the official SDK of
 * the client dialect took each cell's client response (its main attempt), every response it
 * did not accept explained, the findings an agent would trip on, and where the SDK and the
 * lens read the same bytes differently, a rig problem to look at.
 * `clientSdkStatsOf` reads the stored attempts; `renderClientSdkSection` is pure.
 */
import { z } from "zod";
import { clip, count, mdText, someOf } from "./markdown-text.ts";
import type { ResultsStore } from "./store.ts";

/** Cells the SDK did not accept for one reason. */
export interface NotAccepted {
  /** `error status` (the SDK raised a 4xx/5xx, as it should) or the SDK's error class. */
  reason: string;
  /** The client got an error status: not accepting it is what the SDK is for. */
  errorStatus: boolean;
  cells: number;
  /** Statuses the client got. */
  statuses: number[];
  /** `probe (mode): message`, the first few. */
  examples: string[];
}

export interface ClientSdkStats {
  column: string;
  /** Cells whose main attempt's client response the SDK was given. */
  cells: number;
  accepted: number;
  /** Every cell not accepted, by reason; their `cells` add up to cells − accepted. */
  notAccepted: NotAccepted[];
  /** Cells with at least one client-sdk finding, and examples. */
  withFindings: number;
  findingExamples: string[];
  /** Cells where the SDK and the lens disagree, and examples. */
  withDisagreements: number;
  disagreementExamples: string[];
}

/** A stored SDK view (sweep/client-sdk), checked as it is read. */
export const clientSdkSchema = z.looseObject({
  view: z
    .looseObject({ accepted: z.boolean().catch(false), error: z.string().optional() })
    .optional(),
  findings: z.array(z.string()).catch([]),
  disagreements: z.array(z.string()).catch([]),
});

type StoredSdk = z.infer<typeof clientSdkSchema>;

const UNREADABLE: StoredSdk = {
  view: { accepted: false, error: "the stored SDK view is unreadable" },
  findings: [],
  disagreements: [],
};

function parseSdk(text: string): StoredSdk {
  try {
    const parsed = clientSdkSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : UNREADABLE;
  } catch {
    return UNREADABLE;
  }
}

const EXAMPLES = 3;

/**
 * What kind of refusal an SDK error message is: its words before any quoted or JSON body
 * (which carries the probe's own markers), so `Error: request ended without sending any
 * chunks` and `Error: missing finish_reason for choice 0` stay two reasons.
 */
export function refusalKind(message: string | undefined): string {
  if (!message) return "no reason recorded";
  const head =
    message
      .split(/[{"<[]/)[0]
      ?.trim()
      .replace(/[:,]$/, "") ?? "";
  return clip(head || message, 70);
}

export function clientSdkStatsOf(store: ResultsStore, runId: string): ClientSdkStats[] {
  const rows = store.db
    .prepare(
      `SELECT j."column", j.probe_id, j.mode, e.client_sdk,
              coalesce(json_extract(e.exchange, '$.clientResponse.status'), 0) AS status
       FROM judgements j JOIN exchanges e ON e.id = j.exchange_id
       WHERE j.run_id = ? AND j.phase = 'main' AND e.client_sdk IS NOT NULL
       ORDER BY j."column", j.probe_id, j.mode, j.route_id`,
    )
    .all(runId) as {
    column: string;
    probe_id: string;
    mode: string;
    client_sdk: string;
    status: number;
  }[];
  const byColumn = new Map<string, ClientSdkStats>();
  for (const row of rows) {
    const sdk = parseSdk(row.client_sdk);
    const stats = byColumn.get(row.column) ?? {
      column: row.column,
      cells: 0,
      accepted: 0,
      notAccepted: [],
      withFindings: 0,
      findingExamples: [],
      withDisagreements: 0,
      disagreementExamples: [],
    };
    byColumn.set(row.column, stats);
    stats.cells += 1;
    const where = `${row.probe_id} (${row.mode})`;
    if (sdk.view?.accepted) stats.accepted += 1;
    else notAccepted(stats, row.status, where, sdk.view?.error);
    if (sdk.findings.length > 0) {
      stats.withFindings += 1;
      if (stats.findingExamples.length < EXAMPLES)
        stats.findingExamples.push(`${where}: ${sdk.findings[0]}`);
    }
    if (sdk.disagreements.length > 0) {
      stats.withDisagreements += 1;
      if (stats.disagreementExamples.length < EXAMPLES) {
        stats.disagreementExamples.push(`${where}: ${sdk.disagreements[0]}`);
      }
    }
  }
  for (const stats of byColumn.values()) stats.notAccepted.sort((a, b) => b.cells - a.cells);
  return [...byColumn.values()];
}

function notAccepted(stats: ClientSdkStats, status: number, where: string, error?: string): void {
  const errorStatus = status >= 400;
  const reason = errorStatus ? "error status" : refusalKind(error);
  let group = stats.notAccepted.find((g) => g.reason === reason && g.errorStatus === errorStatus);
  if (!group) {
    group = { reason, errorStatus, cells: 0, statuses: [], examples: [] };
    stats.notAccepted.push(group);
  }
  group.cells += 1;
  if (!group.statuses.includes(status)) group.statuses.push(status);
  if (group.examples.length < EXAMPLES)
    group.examples.push(`${where}: ${error ?? "no reason recorded"}`);
}

export function renderClientSdkSection(stats: readonly ClientSdkStats[]): string[] {
  if (stats.length === 0) return [];
  const lines = [
    "## F. What real clients see",
    "",
    "Every cell's client response (its main attempt) was also parsed by the official SDK of its dialect (`openai`, `@anthropic-ai/sdk`, with their stream helpers). A response it did not accept is explained below: an error status the SDK raised (what it is for), or a response it could not read. *Findings* are what an agent would trip on: a 2xx reply the SDK cannot read, tool arguments it cannot parse. *Disagreements* are replies the SDK and the lens read differently: a rig problem to look at, listed here and never hidden.",
    "",
    "| gateway | cells | SDK accepted | not accepted: error status | not accepted: unreadable | with findings | SDK ≠ lens |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const s of stats) {
    const raised = s.notAccepted.filter((g) => g.errorStatus).reduce((a, g) => a + g.cells, 0);
    const unreadable = s.notAccepted.filter((g) => !g.errorStatus).reduce((a, g) => a + g.cells, 0);
    lines.push(
      `| ${mdText(s.column)} | ${count(s.cells)} | ${count(s.accepted)} | ${count(raised)} | ${count(unreadable)} | ${count(s.withFindings)} | ${count(s.withDisagreements)} |`,
    );
  }
  lines.push("", "Every response not accepted, by reason:", "");
  lines.push("| gateway | reason | cells | client status | examples |", "|---|---|---|---|---|");
  for (const s of stats) {
    for (const g of s.notAccepted) {
      const reason = g.errorStatus
        ? "the client got an error status; the SDK raised it"
        : g.statuses.every((status) => status === 0)
          ? `no response reached the client: ${g.reason}`
          : `the SDK could not read a ${g.statuses.filter(Boolean).join("/")} response: ${g.reason}`;
      lines.push(
        `| ${mdText(s.column)} | ${mdText(reason)} | ${count(g.cells)} | ${someOf(g.statuses.sort().map(String), 8)} | ${mdText(g.examples.map((e) => clip(e, 90)).join("; "))} |`,
      );
    }
  }
  lines.push("");
  for (const s of stats) {
    for (const example of s.findingExamples)
      lines.push(`- finding, ${mdText(s.column)}: ${mdText(example)}`);
    for (const example of s.disagreementExamples)
      lines.push(`- SDK ≠ lens, ${mdText(s.column)}: ${mdText(example)}`);
  }
  lines.push("");
  return lines;
}
