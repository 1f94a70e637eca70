/**
 * The request direction's additions: what the forwarded request holds that the client never
 * sent. Invented content (phantom messages, empty text blocks, cache markers, tools:
 * ordering.ts finds them) and values a gateway set on its own (issue 20's additions rule),
 * each named in the client's spelling.
 */
import type { Dialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import type { Verdict } from "../verdict.ts";
import { show, verdict } from "./describe.ts";
import { REQUEST_ATTRIBUTES, type RequestAttribute } from "./field-names.ts";
import { findInventions, type Invention } from "./ordering.ts";
import { type RequestPair, spelling } from "./request-plan.ts";
import { ATTRIBUTE_RULES } from "./request-rules.ts";

/** Names for invented content a client dialect has no spelling for (Chat has no cache marker). */
const INVENTION_FALLBACK = {
  messages: "messages",
  "messages.text": "messages[].content",
  "messages.cache": "cache_control",
  tools: "tools",
} as const;

function inventionVerdict(pair: RequestPair, inv: Invention): Verdict {
  const field = spelling(pair, inv.attribute) ?? INVENTION_FALLBACK[inv.attribute];
  return verdict({
    direction: "request",
    subject: inv.attribute,
    field,
    kind: "invented",
    detail: inv.detail,
    cause: inv.cause,
  });
}

/**
 * Request values a gateway may add on its own: the sampling values and the service tier. A
 * reasoning budget or level is left out (a gateway writes one to carry the other: `as-budget`,
 * `as-effort`), and so are structures judged elsewhere (tools, tool choice, messages).
 */
const ADDABLE: readonly RequestAttribute[] = [
  ...REQUEST_ATTRIBUTES.filter((attribute) => attribute.startsWith("sampling.")),
  "service-tier",
];

/** Whether the backend's field table marks the attribute's field as required in every request. */
function requiredBy(backend: Dialect, attribute: RequestAttribute): boolean {
  for (const row of dialectModule(backend).fields.rows) {
    if (row.attribute === attribute && row.required) return true;
  }
  return false;
}

/**
 * A value downstream the client did not send (issue 20, additions): `invented` (cause
 * `value-added`), unless the target requires the field and the request does not determine
 * it (Anthropic `max_tokens` from a Chat client that set none): a required fill, `preserved`
 * with cause `required-fill` and the value shown. An explicit default (`n: 1`) says nothing
 * new and is left alone.
 */
function addedValuesInto(pair: RequestPair, out: Verdict[]): void {
  for (const attribute of ADDABLE) {
    const rule = ATTRIBUTE_RULES[attribute];
    if (rule.kind !== "value" || rule.read(pair.client) !== undefined) continue;
    const got = rule.read(pair.forwarded);
    if (got === undefined || rule.isDefault?.(got)) continue;
    const field = spelling(pair, attribute) ?? attribute;
    const base = { direction: "request", subject: attribute, field, got } as const;
    if (requiredBy(pair.backend, attribute)) {
      const detail = `absent → ${show(got)} (${pair.backend} requires it)`;
      out.push(verdict({ ...base, kind: "preserved", detail, cause: "required-fill" }));
    } else {
      const detail = `absent → ${show(got)}`;
      out.push(verdict({ ...base, kind: "invented", detail, cause: "value-added" }));
    }
  }
}

/** Every addition of a read pair pushed onto `out`: invented content, then added values. */
export function additionsInto(pair: RequestPair, out: Verdict[]): void {
  for (const inv of findInventions(pair.client, pair.forwarded, pair.backend)) {
    out.push(inventionVerdict(pair, inv));
  }
  addedValuesInto(pair, out);
}
