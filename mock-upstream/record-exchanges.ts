/**
 * A record file read as exchanges, for `gatecheck check`: the records of one nonce (one probe,
 * with its retries and fallbacks) make one exchange; a generate request without a nonce is an
 * exchange of its own; model-list polls and other requests without a nonce are left out.
 * What a record holds is the backend side only: the exchange has no client side (no client
 * request, no client dialect, no client response), and docs/lens.md says what the lens makes
 * of that.
 */
import type { WireExchange } from "../dialects/wire/exchange.ts";
import { exchangeTiming, forwardedSide } from "../dialects/wire/forwarded-side.ts";
import type { MockRecord } from "./record.ts";

export interface RecordedExchange {
  /** The nonce the records share; undefined for a lone request without one. */
  nonce?: string;
  /** The records' `seq` numbers, to find them in the file. */
  seqs: number[];
  exchange: WireExchange;
}

export interface RecordFileExchanges {
  exchanges: RecordedExchange[];
  /** Records in no exchange: without a nonce and not a generate request (model lists, ...). */
  skipped: number;
  /** Exchanges whose backend dialect the mock could not tell from the path: which, and why. */
  unknown: { nonce?: string; seqs: number[]; reason: string }[];
}

function groupsOf(records: readonly MockRecord[]): { nonce?: string; records: MockRecord[] }[] {
  const groups: { nonce?: string; records: MockRecord[] }[] = [];
  const byNonce = new Map<string, MockRecord[]>();
  for (const record of records) {
    if (record.nonce === undefined) {
      if (record.kind === "generate") groups.push({ records: [record] });
      continue;
    }
    let group = byNonce.get(record.nonce);
    if (!group) {
      group = [];
      byNonce.set(record.nonce, group);
      groups.push({ nonce: record.nonce, records: group });
    }
    group.push(record);
  }
  return groups;
}

export function recordFileExchanges(records: readonly MockRecord[]): RecordFileExchanges {
  const out: RecordFileExchanges = { exchanges: [], skipped: 0, unknown: [] };
  const groups = groupsOf(records);
  out.skipped = records.length - groups.reduce((n, g) => n + g.records.length, 0);
  for (const group of groups) {
    const seqs = group.records.map((r) => r.seq);
    const scored = group.records.find((r) => r.kind === "generate") ?? group.records[0];
    if (!scored?.dialect) {
      out.unknown.push({
        ...(group.nonce ? { nonce: group.nonce } : {}),
        seqs,
        reason: `${scored?.request.path ?? "the path"} is none of the mock's routes (it answered ${scored?.reply.status ?? "nothing"}): no backend dialect to judge it in`,
      });
      continue;
    }
    const side = forwardedSide(group.records);
    const exchange: WireExchange = {
      route: { backend: scored.dialect },
      mode: scored.stream ? "stream" : "non-stream",
      forwarded: side.forwarded,
    };
    if (side.upstreamReply) exchange.upstreamReply = side.upstreamReply;
    const timing = exchangeTiming(side.arrivals, undefined);
    if (timing) exchange.timing = timing;
    out.exchanges.push({ ...(group.nonce ? { nonce: group.nonce } : {}), seqs, exchange });
  }
  return out;
}
