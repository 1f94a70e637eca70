/**
 * One file given to `gatecheck check`, judged: an exchange file (one exchange), or a mock
 * record file (JSONL, `gatecheck mock --record`), whose records are read into exchanges by
 * nonce (mock-upstream/record-exchanges.ts) and each judged by what its backend side shows.
 */
import { readFile } from "node:fs/promises";
import { isChainValue, parseChain } from "../../loops/exchange-chain.ts";
import { type ChainVerdict, judgeChain } from "../../loops/judge-chain.ts";
import { recordFileExchanges } from "../../mock-upstream/record-exchanges.ts";
import { readRecordLines } from "../../mock-upstream/record-schema.ts";
import {
  ExchangeError,
  exchangeJson,
  exchangeOfWire,
  parseExchange,
} from "../../probes/exchange.ts";
import { judgeExchange } from "../../probes/lens/judge-exchange.ts";
import type { Verdict } from "../../probes/verdict.ts";

/**
 * One outcome: an exchange file's verdicts; an exchange chain's (each turn's, and those across
 * turns); one exchange of a record file (its nonce and the records' `seq`s) with its verdicts,
 * or why it was left out; or why a file cannot be used.
 */
export type Judged =
  | { file: string; verdicts: Verdict[] }
  | ({ file: string } & ChainVerdicts)
  | { file: string; nonce?: string; seqs: number[]; verdicts: Verdict[] }
  | { file: string; nonce?: string; seqs: number[]; skipped: string }
  | { file: string; error: string };

/** A chain's verdicts: each turn's (the lens's), then those across turns (judge-chain.ts). */
export interface ChainVerdicts {
  turns: Verdict[][];
  acrossTurns: ChainVerdict[];
}

/** Every verdict an outcome holds, for `--fail-on` (a chain's across turns too). */
export function verdictsOf(judged: Judged): { verdict: Verdict["verdict"] }[] {
  if ("verdicts" in judged) return judged.verdicts;
  if ("turns" in judged) return [...judged.turns.flat(), ...judged.acrossTurns];
  return [];
}

/**
 * An exchange file's outcome: one exchange, or a chain (a JSON object with a `chain` key,
 * loops/exchange-chain.ts) whose turns are judged each and against the one before.
 */
export function judgeExchangeText(text: string, file: string): Judged {
  const value = exchangeJson(text, file);
  if (!isChainValue(value)) return { file, verdicts: judgeExchange(parseExchange(value, file)) };
  const turns = parseChain(value, file);
  return { file, turns: turns.map((turn) => judgeExchange(turn)), acrossTurns: judgeChain(turns) };
}

/** A record file's outcomes and how many of its records belong to no exchange. */
export interface RecordFileJudged {
  judged: Judged[];
  /** Model-list polls and other requests without a nonce that are not generate requests. */
  unjudged: number;
}

/**
 * A mock record file: named `.jsonl`, or its first line is a record (an object with `seq`,
 * `listener` and `request`). Anything else is read as one exchange.
 */
export function isRecordFile(file: string, text: string): boolean {
  if (file.endsWith(".jsonl")) return true;
  const first = text.trimStart().split("\n", 1)[0] ?? "";
  if (!first.startsWith("{")) return false;
  try {
    const value = JSON.parse(first) as Record<string, unknown>;
    return "seq" in value && "listener" in value && "request" in value;
  } catch {
    return false;
  }
}

/**
 * Every exchange of a record file judged; a line that is not a record (a torn line a killed
 * mock left) is an error of its own, and the records around it are still judged.
 */
export function judgeRecordText(text: string, file: string): RecordFileJudged {
  const lines = readRecordLines(text, file);
  const read = recordFileExchanges(lines.records);
  const judged: Judged[] = lines.bad.map((error) => ({ file, error: error.message }));
  for (const { nonce, seqs, exchange } of read.exchanges)
    judged.push({
      file,
      ...(nonce === undefined ? {} : { nonce }),
      seqs,
      verdicts: judgeExchange(exchangeOfWire(exchange)),
    });
  for (const { nonce, seqs, reason } of read.unknown)
    judged.push({ file, ...(nonce === undefined ? {} : { nonce }), seqs, skipped: reason });
  return { judged, unjudged: read.skipped };
}

/** Every outcome of one file, and for a record file how many records were in no exchange. */
export async function judgeFile(
  file: string,
): Promise<{ record: boolean; judged: Judged[]; unjudged: number }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return {
      record: false,
      judged: [{ file, error: `${file}: ${(error as Error).message}` }],
      unjudged: 0,
    };
  }
  const record = isRecordFile(file, text);
  try {
    if (record) return { record, ...judgeRecordText(text, file) };
    return { record, judged: [judgeExchangeText(text, file)], unjudged: 0 };
  } catch (error) {
    if (error instanceof ExchangeError)
      return { record, judged: [{ file, error: error.message }], unjudged: 0 };
    throw error;
  }
}
