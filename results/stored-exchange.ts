/**
 * A stored attempt's exchange read back (the `exchange` column, schema version 7): JSON text
 * checked against the wire vocabulary's strict schema, so a damaged row is an error naming
 * the attempt and the path inside its exchange, never a guess. Every reader of stored bytes
 * comes through here: the store, `rescore`, `export` and the HTML report.
 */
import { type WireExchange, wireExchangeSchema } from "../dialects/wire/exchange.ts";
import { describeIssues } from "../dialects/wire/issues.ts";
import { ResultsError } from "./results-error.ts";

/**
 * `where` names the attempt in errors (`attempt 12 (oc-seed stream main #1) of run R`); a
 * function is called only when there is an error to name it in.
 */
export function storedExchange(text: string, where: string | (() => string)): WireExchange {
  const name = () => (typeof where === "string" ? where : where());
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ResultsError(
      "bad-record",
      `${name()}: its exchange is not JSON (${(error as Error).message})`,
    );
  }
  const parsed = wireExchangeSchema.safeParse(value);
  if (!parsed.success)
    throw new ResultsError(
      "bad-record",
      describeIssues(parsed.error, `${name()}: its exchange is not a valid exchange`),
    );
  return parsed.data as WireExchange;
}
