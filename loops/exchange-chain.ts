/**
 * The exchange-chain format: a multi-turn trace for `gatecheck check`, its turns in order,
 * each an exchange in the format `check` reads (docs/lens.md), all on one route. The lens
 * judges each turn; judge-chain.ts judges each turn against the one before (docs/loops.md,
 * "A trace of your own").
 *
 * ```jsonc
 * { "chain": [ <exchange>, <exchange>, ... ], "note": "optional, ignored" }
 * ```
 */
import { z } from "zod";
import { isRecord } from "../dialects/json.ts";
import { describeIssues } from "../dialects/wire/issues.ts";
import { type Exchange, ExchangeError, parseExchange } from "../probes/exchange.ts";
import { exchangeFileSchema } from "../probes/exchange-shape.ts";

export const exchangeChainSchema = z.strictObject({
  chain: z.array(exchangeFileSchema).min(2, "a chain has two turns or more"),
  note: z.string().optional(),
});

/** A parsed JSON value is a chain when it has a `chain` key (an exchange never has one). */
export function isChainValue(value: unknown): boolean {
  return isRecord(value) && "chain" in value;
}

/**
 * The turns of a chain, each a parsed exchange. Throws ExchangeError `invalid-exchange`
 * naming the path inside the file (`chain[1].route.client`) and what was expected, or the
 * turn whose route is not the first turn's.
 */
export function parseChain(value: unknown, source = "chain"): Exchange[] {
  const result = exchangeChainSchema.safeParse(value);
  if (!result.success) {
    throw new ExchangeError(
      "invalid-exchange",
      describeIssues(result.error, `${source} is not a valid exchange chain`),
      { cause: result.error },
    );
  }
  const raw = (value as { chain: unknown[] }).chain;
  const turns = raw.map((turn, i) => parseExchange(turn, `${source} turn ${i + 1}`));
  const [first] = turns;
  for (const [i, turn] of turns.entries()) {
    if (
      first &&
      (turn.route.client !== first.route.client || turn.route.backend !== first.route.backend)
    ) {
      throw new ExchangeError(
        "invalid-exchange",
        `${source} is not a valid exchange chain:\n  chain[${i}].route: ${turn.route.client} -> ${turn.route.backend}, but turn 1 is ${first.route.client} -> ${first.route.backend} (a chain is one route's turns)`,
      );
    }
  }
  return turns;
}
