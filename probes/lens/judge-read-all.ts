/**
 * Every verdict of an exchange and one field's verdict, as the sweep asks for them per attempt
 * (`judgeRead` then `judgeReadField`). The field's verdict is taken from the full pass where
 * that pass judged exactly what the single-field question judges; the rare field it cannot
 * answer that way is judged again on its own, so the answer is always `judgeReadField`'s.
 *
 * The full pass answers a field when it holds a verdict named by it in the field's direction
 * and the field is not one of these, where the two questions judge different things:
 * - an alias the full pass names otherwise (asked `messages[role=developer]`, judged under
 *   `messages[role=system]`; the single question renames the verdict);
 * - a spelling of an attribute that is also an unknown client key (the single question judges
 *   the attribute only), or a spelling two attributes share;
 * - a header outside `JUDGED_HEADERS` (judged only when asked);
 * - a field with no verdict in the full pass (not sent, not forwarded, unreadable upstream):
 *   the single question has its own words for those.
 */
import type { ClientDialect } from "../../dialects/dialect.ts";
import type { Verdict } from "../verdict.ts";
import { attributeOf, isFailureField, isReplyFeature, REQUEST_ATTRIBUTES } from "./field-names.ts";
import { judgeRead, judgeReadField, type ReadExchange, worst } from "./judge-read.ts";
import { spelling } from "./judge-request.ts";
import { REQUEST_FIELD_NAMES } from "./request-spellings.ts";
import { JUDGED_HEADERS } from "./wire-judges.ts";

/** Spellings (fields and aliases) that more than one attribute of a dialect answers to. */
function sharedSpellings(dialect: ClientDialect): ReadonlySet<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const attribute of REQUEST_ATTRIBUTES) {
    const row = REQUEST_FIELD_NAMES[dialect][attribute];
    if (!row) continue;
    for (const name of [row.field, ...(row.aliases ?? [])]) {
      if (seen.has(name)) shared.add(name);
      seen.add(name);
    }
  }
  return shared;
}

const SHARED = {
  "anthropic-messages": sharedSpellings("anthropic-messages"),
  "openai-chat": sharedSpellings("openai-chat"),
  "openai-responses": sharedSpellings("openai-responses"),
} as const satisfies Record<ClientDialect, ReadonlySet<string>>;

const JUDGED_HEADER_FIELDS: ReadonlySet<string> = new Set(
  JUDGED_HEADERS.map((h) => `headers.${h}`),
);

/** Whether the full pass judged `field` as the single-field question does (see the header). */
function answeredAlike(read: ReadExchange, field: string): boolean {
  if (isReplyFeature(field)) return true;
  if (field.startsWith("headers.")) return JUDGED_HEADER_FIELDS.has(field);
  const dialect = read.exchange.route.client;
  const attribute = attributeOf(dialect, field);
  if (attribute === undefined) return true;
  if (SHARED[dialect].has(field) || field in read.client.extras) return false;
  const pair = { clientDialect: dialect, clientBody: read.exchange.clientRequest.body };
  return spelling(pair, attribute) === field;
}

/** The full pass's verdict for `field`, or undefined where it cannot stand for the answer. */
function fromFullPass(
  read: ReadExchange,
  verdicts: readonly Verdict[],
  field: string,
): Verdict | undefined {
  if (isFailureField(field) || !answeredAlike(read, field)) return undefined;
  const direction = isReplyFeature(field) ? "reply" : "request";
  const named = verdicts.filter((v) => v.field === field);
  if (named.length === 0 || named.some((v) => v.direction !== direction)) return undefined;
  return worst(named);
}

/** `judgeReadField(read, field)`, taken from `verdicts` (the full pass's) where they answer it. */
export function fieldVerdict(
  read: ReadExchange,
  verdicts: readonly Verdict[],
  field: string,
): Verdict {
  return fromFullPass(read, verdicts, field) ?? judgeReadField(read, field);
}

/** `judgeRead(read)` and `judgeReadField(read, field)`, the second from the first where it can. */
export function judgeReadAll(
  read: ReadExchange,
  field: string,
): { verdicts: Verdict[]; verdict: Verdict } {
  const verdicts = judgeRead(read);
  return { verdicts, verdict: fieldVerdict(read, verdicts, field) };
}
