/**
 * The request direction's additions: what the forwarded request holds that the client never
 * sent. Invented content (phantom messages, empty text blocks, cache markers, tools:
 * ordering.ts finds them) and values a gateway set on its own (issue 20's additions rule),
 * each named in the client's spelling.
 */
import type { CanonicalRequest, Part } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import { dialectModule } from "../../dialects/registry.ts";
import type { Verdict } from "../verdict.ts";
import { backendPaths } from "./backend-keys.ts";
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

/** An empty list, text or object: a value that says nothing (null is JSON's "not set"). */
function isEmptyValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "string") return value === "";
  if (!isRecord(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** The value at a dotted path of plain keys, own keys only. */
function valueAt(body: Record<string, unknown>, path: string): unknown {
  let here: unknown = body;
  for (const key of path.split(".")) {
    if (!isRecord(here) || !Object.hasOwn(here, key)) return undefined;
    here = here[key];
  }
  return here;
}

/** Whether the client request carries the attribute (a value, or a custom rule's content). */
function clientCarries(pair: RequestPair, attribute: RequestAttribute): boolean {
  const rule = ATTRIBUTE_RULES[attribute];
  return rule.kind === "custom" ? rule.present(pair.client) : rule.read(pair.client) !== undefined;
}

/**
 * An empty value under the backend's own key for an attribute the client did not send
 * (`system: []`, `instructions: ""`, `tools: []`): the reading keeps no trace of it, so the
 * forwarded body is looked at. Nothing requires an empty value, and some providers refuse one
 * (OpenAI answers 400 to `tools: []`), so it is `invented`, cause `empty-added` (issue 20,
 * additions). A sampling value read from the body (`stop: []`) is addedValuesInto's.
 */
function emptyAddedInto(pair: RequestPair, out: Verdict[]): void {
  const body = pair.forwardedBody;
  if (!isRecord(body)) return;
  for (const attribute of REQUEST_ATTRIBUTES) {
    const paths = backendPaths(attribute, pair.backend);
    if (paths.length === 0 || clientCarries(pair, attribute)) continue;
    const rule = ATTRIBUTE_RULES[attribute];
    if (
      ADDABLE.includes(attribute) &&
      rule.kind === "value" &&
      rule.read(pair.forwarded) !== undefined
    )
      continue;
    for (const path of paths) {
      const raw = valueAt(body, path);
      if (raw === undefined || !isEmptyValue(raw)) continue;
      const field = spelling(pair, attribute) ?? path;
      const detail = `absent → ${path} ${show(raw)}`;
      out.push(
        verdict({
          direction: "request",
          subject: attribute,
          field,
          kind: "invented",
          detail,
          cause: "empty-added",
          got: raw,
        }),
      );
      break;
    }
  }
}

/**
 * The part kinds whose extras are judged, each with its subject. Text is not among them: a text
 * part's extras are also keys its dialect defines that no canonical field holds (Gemini's
 * `thoughtSignature` on a text part), which are not additions.
 */
const PART_SUBJECTS = {
  image: { subject: "messages.image", what: "an image" },
  document: { subject: "messages.document", what: "a document" },
  audio: { subject: "messages.audio", what: "an audio part" },
  "tool-call": { subject: "messages.tool-call", what: "a tool call" },
  "tool-result": { subject: "messages.tool-result", what: "a tool result" },
  thinking: { subject: "messages.thinking", what: "a thinking block" },
  refusal: { subject: "messages.refusal", what: "a refusal" },
} as const satisfies Partial<Record<Part["type"], { subject: RequestAttribute; what: string }>>;

type JudgedPart = keyof typeof PART_SUBJECTS;

function isJudgedPart(type: Part["type"]): type is JudgedPart {
  return Object.hasOwn(PART_SUBJECTS, type);
}

/** The extra keys beside each kind of part of a request (keys its reader kept as extras). */
function partExtras(req: CanonicalRequest): Map<JudgedPart, Map<string, unknown>> {
  const out = new Map<JudgedPart, Map<string, unknown>>();
  const add = (type: JudgedPart, extras: Record<string, unknown>) => {
    const keys = out.get(type) ?? new Map<string, unknown>();
    out.set(type, keys);
    for (const key in extras) if (Object.hasOwn(extras, key)) keys.set(key, extras[key]);
  };
  const visit = (parts: readonly Part[]) => {
    for (const p of parts) {
      if (isJudgedPart(p.type) && "extras" in p && p.extras) add(p.type, p.extras);
      if (p.type === "tool-result") visit(p.content);
    }
  };
  for (const m of req.messages) visit(m.parts);
  return out;
}

/**
 * Keys a gateway wrote beside an image that the client never sent there (claude-code-router
 * 2.0.0's `media_type` beside a Chat `image_url`): the image itself is carried and judged as
 * one (the reader keeps the key as an extra), the key is an addition, `invented`, cause
 * `part-keys-added` (issue 20, readers tolerate unknown sibling keys).
 */
function partKeysAddedInto(pair: RequestPair, out: Verdict[]): void {
  const got = partExtras(pair.forwarded);
  if (got.size > 0) {
    const sent = partExtras(pair.client);
    for (const [type, keys] of got) {
      const before = sent.get(type);
      const added = [...keys].filter(([key]) => !before?.has(key));
      if (added.length === 0) continue;
      const { subject, what } = PART_SUBJECTS[type];
      keysAdded(pair, subject, added, `beside ${what}`, out);
    }
  }
  const format = pair.forwarded.responseFormat?.extras;
  if (format) {
    const before = pair.client.responseFormat?.extras ?? {};
    const added = Object.entries(format).filter(([key]) => !Object.hasOwn(before, key));
    if (added.length > 0) keysAdded(pair, "response-format", added, "beside the format", out);
  }
}

function keysAdded(
  pair: RequestPair,
  subject: RequestAttribute,
  added: readonly (readonly [string, unknown])[],
  where: string,
  out: Verdict[],
): void {
  const shown = added.map(([key, value]) => `${key} ${show(value)}`).join(", ");
  out.push(
    verdict({
      direction: "request",
      subject,
      field: spelling(pair, subject) ?? subject,
      kind: "invented",
      detail: `absent → ${shown} ${where}`,
      cause: "part-keys-added",
    }),
  );
}

/** Every addition of a read pair pushed onto `out`: invented content, then added values. */
export function additionsInto(pair: RequestPair, out: Verdict[]): void {
  for (const inv of findInventions(pair.client, pair.forwarded, pair.backend)) {
    out.push(inventionVerdict(pair, inv));
  }
  addedValuesInto(pair, out);
  emptyAddedInto(pair, out);
  partKeysAddedInto(pair, out);
}
