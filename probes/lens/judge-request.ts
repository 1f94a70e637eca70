/**
 * The request direction: for every attribute the client request carries, what became of it
 * in the forwarded request. One verdict per attribute, named in the client's spelling, plus
 * one per unknown client key and one per invented item.
 */
import type { CanonicalRequest, ToolChoice } from "../../dialects/canonical.ts";
import { CLIENT_DIALECTS, type ClientDialect, type Dialect } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { toolChoiceMeaning } from "../../dialects/tool-choice.ts";
import { extrasSubject } from "../subject.ts";
import type { Verdict } from "../verdict.ts";
import { malformedValue } from "./backend-keys.ts";
import {
  judgeCache,
  judgeMedia,
  judgeReasoning,
  judgeRefusal,
  judgeSystem,
  judgeText,
} from "./content-judges.ts";
import { sameRendering, sameValue, show, showChange, verdict } from "./describe.ts";
import { REQUEST_ATTRIBUTES, REQUEST_FIELD_NAMES, type RequestAttribute } from "./field-names.ts";
import { isAbsent, type Judgement } from "./judgement.ts";
import {
  expressibleValue,
  type NoEquivalentRow,
  partNoEquivalent,
  requestNoEquivalent,
  valueSubject,
} from "./no-equivalent.ts";
import { findInventions, type Invention, judgeOrder } from "./ordering.ts";
import { ATTRIBUTE_RULES, type AttributeRule, type ValueRule } from "./request-rules.ts";
import { judgeCallIds, judgeResultIds, judgeToolResults, judgeToolSchemas } from "./tool-judges.ts";

export interface RequestPair {
  clientDialect: ClientDialect;
  backend: Dialect;
  client: CanonicalRequest;
  forwarded: CanonicalRequest;
  /** The client body as sent, to name a field by the alias the client used. */
  clientBody?: unknown;
}

const PLAIN_KEY = /^[a-z_]+$/;

function plain(name: string): boolean {
  return PLAIN_KEY.test(name);
}

/**
 * One attribute as a client dialect spells it, with its rule, worked out once per dialect:
 * judging walks every attribute for every exchange, and two keyed lookups per attribute (the
 * spelling table, the rule table) plus a regex on the spelling cost more than most judgements.
 */
interface AttributePlan {
  attribute: RequestAttribute;
  rule: AttributeRule;
  field: string;
  /** Top-level aliases a body may use in the field's place (only when the field is a plain key). */
  plainAliases: readonly string[];
  /** Whether the field is a plain key (a gateway may pass it on as an unknown key). */
  plainField: boolean;
  /** The value brought to one form before comparing, where spellings of a meaning differ. */
  meaning?: (value: unknown) => unknown;
}

/** Spellings of one meaning brought to one form before comparing (dialects/tool-choice.ts). */
const MEANING: Partial<Record<RequestAttribute, (value: unknown) => unknown>> = {
  "tool-choice": (v) => toolChoiceMeaning(v as ToolChoice),
};

function planOf(dialect: ClientDialect): AttributePlan[] {
  const out: AttributePlan[] = [];
  for (const attribute of REQUEST_ATTRIBUTES) {
    const row = REQUEST_FIELD_NAMES[dialect][attribute];
    if (!row) continue;
    const plainAliases = row.aliases && plain(row.field) ? row.aliases.filter(plain) : [];
    const meaning = MEANING[attribute];
    out.push({
      attribute,
      rule: ATTRIBUTE_RULES[attribute],
      field: row.field,
      plainAliases,
      plainField: plain(row.field),
      ...(meaning ? { meaning } : {}),
    });
  }
  return out;
}

const PLANS = Object.fromEntries(CLIENT_DIALECTS.map((d) => [d, planOf(d)])) as Record<
  ClientDialect,
  AttributePlan[]
>;

const PLAN_BY_ATTRIBUTE = Object.fromEntries(
  CLIENT_DIALECTS.map((d) => [d, new Map(PLANS[d].map((p) => [p.attribute, p]))]),
) as Record<ClientDialect, Map<RequestAttribute, AttributePlan>>;

/** The field a planned attribute is named by: a top-level alias when the body used it. */
function plannedSpelling(plan: AttributePlan, clientBody: unknown): string {
  if (plan.plainAliases.length === 0 || !isRecord(clientBody) || plan.field in clientBody) {
    return plan.field;
  }
  return plan.plainAliases.find((a) => a in clientBody) ?? plan.field;
}

/** The client's spelling of an attribute: an alias when the body used it at top level. */
export function spelling(
  pair: Pick<RequestPair, "clientDialect" | "clientBody">,
  attribute: RequestAttribute,
): string | undefined {
  const plan = PLAN_BY_ATTRIBUTE[pair.clientDialect].get(attribute);
  return plan ? plannedSpelling(plan, pair.clientBody) : undefined;
}

function customJudgement(attribute: RequestAttribute, pair: RequestPair): Judgement {
  const { client, forwarded, backend } = pair;
  switch (attribute) {
    case "system":
      return judgeSystem(client, forwarded);
    case "messages":
      return judgeOrder(client, forwarded);
    case "messages.text":
      return judgeText(client, forwarded);
    case "messages.image":
      return judgeMedia(client, forwarded, "image");
    case "messages.document":
      return judgeMedia(client, forwarded, "document");
    case "messages.audio":
      return judgeMedia(client, forwarded, "audio");
    case "messages.cache":
      return judgeCache(client, forwarded);
    case "messages.thinking":
      return judgeReasoning(client, forwarded, "thinking");
    case "messages.reasoning":
      return judgeReasoning(client, forwarded, "reasoning");
    case "messages.refusal":
      return judgeRefusal(client, forwarded);
    case "messages.tool-call.id":
      return judgeCallIds(client, forwarded);
    case "messages.tool-result.call-id":
      return judgeResultIds(client, forwarded);
    case "messages.tool-result":
      return judgeCarriedResults(client, forwarded);
    case "tools.schema":
      return judgeToolSchemas(client, forwarded, backend);
    default:
      return { kind: "error", detail: "no judge for this attribute" };
  }
}

/** Whether a tool result holds content the target has no place for. */
function resultHoldsExcused(client: CanonicalRequest, target: Dialect): boolean {
  for (const m of client.messages) {
    for (const p of m.parts) {
      if (p.type !== "tool-result") continue;
      for (const inner of p.content) if (partNoEquivalent(inner, target) !== undefined) return true;
    }
  }
  return false;
}

/**
 * Tool results judged on what the backend can carry: media inside them that the
 * no-equivalent table says it has no place for (a PDF in an Ollama tool message) are set
 * aside and named; with everything else carried the verdict is no-equivalent.
 */
function judgeCarriedResults(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  const target = forwarded.dialect;
  if (!resultHoldsExcused(client, target)) return judgeToolResults(client, forwarded);
  const excused: string[] = [];
  const messages = client.messages.map((m) => ({
    ...m,
    parts: m.parts.map((p) => {
      if (p.type !== "tool-result") return p;
      const content = p.content.filter((inner) => {
        const row = partNoEquivalent(inner, target);
        if (row) excused.push(`${inner.type} → absent (${target}: ${row.reason})`);
        return !row;
      });
      return { ...p, content };
    }),
  }));
  const j = judgeToolResults({ ...client, messages }, forwarded);
  if (isAbsent(j) || j.kind !== "preserved") return j;
  return { kind: "no-equivalent", detail: `${j.detail}; ${excused.join("; ")}` };
}

/** Objects compared over the keys the client's value has. */
function aligned(sent: unknown, got: unknown): unknown {
  if (!isRecord(sent) || !isRecord(got)) return got;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(sent)) if (key in got) out[key] = got[key];
  return out;
}

const NONE_EXCUSED: readonly NoEquivalentRow[] = [];

function valueJudgement(
  rule: ValueRule,
  pair: RequestPair,
  plan: AttributePlan,
  field: string,
  asSent: unknown,
): Judgement {
  const { attribute, meaning } = plan;
  const sent = meaning ? meaning(asSent) : asSent;
  let got = rule.read(pair.forwarded);
  if (meaning && got !== undefined) got = meaning(got);
  if (got === undefined) {
    // Present under the backend's own key but unreadable: sent in the wrong shape.
    const odd = malformedValue(attribute, pair.forwarded);
    if (odd) {
      const how = `${odd.path} ${show(odd.raw)}, a shape ${pair.backend} does not define`;
      return { kind: "mangled", detail: `${show(sent)} → ${how}`, cause: "malformed" };
    }
    if (rule.isDefault?.(sent)) {
      return { kind: "preserved", detail: `${show(sent)} → absent (the default)` };
    }
    if (rule.impliedBy?.(dialectModule(pair.backend))) {
      return {
        kind: "preserved",
        detail: `${show(sent)} → absent (${pair.backend} always does this)`,
      };
    }
    const carried = rule.carrier?.read(pair.forwarded);
    if (rule.carrier && carried !== undefined && (rule.carrier.carries?.(sent, carried) ?? true)) {
      const how = `${show(sent)} → absent, carried as ${rule.carrier.label} ${show(carried)}`;
      return { kind: "preserved", detail: how, cause: rule.carrier.cause };
    }
    // A gateway may pass a field the backend reader does not map as an unknown key.
    // The field as spelled: the plan's own, or one of its aliases (plain keys all).
    const plainKey = field === plan.field ? plan.plainField : true;
    if (plainKey && sameValue(pair.forwarded.extras[field], sent)) {
      return {
        kind: "preserved",
        detail: `${showChange(sent, sent)} as an unknown key`,
        cause: "unknown-key",
      };
    }
    const rowOf = valueSubject(attribute, sent);
    return { absent: true, detail: `${show(sent)} → absent`, sent, ...(rowOf ? { rowOf } : {}) };
  }
  // Keys the backend has no place for (a schema's strict flag) are left out of the compare.
  // Only a response format has keys a backend may have no place for (expressibleValue).
  const { value: carriable, excused } =
    attribute === "response-format"
      ? expressibleValue(attribute, sent, pair.backend)
      : { value: sent, excused: NONE_EXCUSED };
  if (rule.alignKeys) got = aligned(carriable, got);
  if (sameValue(carriable, got)) {
    // Equal primitives render the same; structures may differ in key order, so both are shown.
    const shown = show(sent);
    const gotShown =
      typeof got === "object" && got !== null && !sameRendering(sent, got) ? show(got) : shown;
    if (excused.length === 0)
      return { kind: "preserved", detail: `${shown} → ${gotShown}`, sent, got };
    const why = excused.map((row) => `${row.subject}: ${row.reason}`).join("; ");
    return {
      kind: "no-equivalent",
      detail: `${shown} → ${gotShown} (${pair.backend}: ${why})`,
      sent,
      got,
    };
  }
  if (field === "model") {
    return { kind: "preserved", detail: showChange(sent, got), cause: "routed", sent, got };
  }
  return { kind: "mangled", detail: showChange(sent, got), sent, got };
}

/** Whether the client request carries the attribute. */
export function carries(attribute: RequestAttribute, req: CanonicalRequest): boolean {
  const rule = ATTRIBUTE_RULES[attribute];
  return rule.kind === "custom" ? rule.present(req) : rule.read(req) !== undefined;
}

/** One attribute's verdict, or undefined when the client did not send it. */
export function judgeAttribute(
  pair: RequestPair,
  attribute: RequestAttribute,
): Verdict | undefined {
  const plan = PLAN_BY_ATTRIBUTE[pair.clientDialect].get(attribute);
  return plan ? judgePlanned(pair, plan) : undefined;
}

function judgePlanned(pair: RequestPair, plan: AttributePlan): Verdict | undefined {
  const { rule, attribute } = plan;
  if (rule.kind === "custom") {
    if (!rule.present(pair.client)) return undefined;
    const field = plannedSpelling(plan, pair.clientBody);
    return finish(pair, attribute, field, customJudgement(attribute, pair));
  }
  const sent = rule.read(pair.client);
  if (sent === undefined) return undefined;
  const field = plannedSpelling(plan, pair.clientBody);
  return finish(pair, attribute, field, valueJudgement(rule, pair, plan, field, sent));
}

function finish(
  pair: RequestPair,
  attribute: RequestAttribute,
  field: string,
  j: Judgement,
): Verdict {
  const base = { direction: "request", subject: attribute, field } as const;
  if (!isAbsent(j)) {
    return verdict({
      ...base,
      kind: j.kind,
      detail: j.detail,
      cause: j.cause,
      sent: j.sent,
      got: j.got,
    });
  }
  const sent = j.sent;
  const row = requestNoEquivalent(j.rowOf ?? attribute, pair.backend);
  if (row) {
    const detail = `${j.detail} (${pair.backend}: ${row.reason})`;
    return verdict({ ...base, kind: "no-equivalent", detail, sent });
  }
  return verdict({ ...base, kind: "dropped", detail: j.detail, sent });
}

/** Unknown client keys (kept raw by the reader) must arrive with the same value. */
export function judgeUnknownKey(pair: RequestPair, key: string): Verdict {
  const sent = pair.client.extras[key];
  // An own key only: `toString` or `constructor` absent downstream is absent, not a function.
  const got = Object.hasOwn(pair.forwarded.extras, key) ? pair.forwarded.extras[key] : undefined;
  const kind = got === undefined ? "dropped" : sameValue(sent, got) ? "preserved" : "mangled";
  const detail = showChange(sent, got);
  return verdict({
    direction: "request",
    subject: extrasSubject(key),
    field: key,
    kind,
    detail,
    sent,
    got,
  });
}

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

export function judgeInventions(pair: RequestPair): Verdict[] {
  const out = findInventions(pair.client, pair.forwarded, pair.backend).map((inv) =>
    inventionVerdict(pair, inv),
  );
  addedValuesInto(pair, out);
  return out;
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

/** Every request verdict for a read pair: attributes, unknown keys, inventions. */
export function judgeRequest(pair: RequestPair): Verdict[] {
  const out: Verdict[] = [];
  judgeRequestInto(pair, out);
  return out;
}

/** judgeRequest's verdicts pushed onto `out` (the caller's list: no copy from list to list). */
export function judgeRequestInto(pair: RequestPair, out: Verdict[]): void {
  for (const plan of PLANS[pair.clientDialect]) {
    const v = judgePlanned(pair, plan);
    if (v) out.push(v);
  }
  for (const key in pair.client.extras) out.push(judgeUnknownKey(pair, key));
  for (const inv of findInventions(pair.client, pair.forwarded, pair.backend)) {
    out.push(inventionVerdict(pair, inv));
  }
  addedValuesInto(pair, out);
}
