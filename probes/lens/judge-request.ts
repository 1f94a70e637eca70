/**
 * The request direction: for every attribute the client request carries, what became of it
 * in the forwarded request. One verdict per attribute, named in the client's spelling, plus
 * one per unknown client key; what the gateway added is request-additions.ts's, the plans
 * (each attribute's spelling and rule) request-plan.ts's.
 */
import type { CanonicalRequest } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { anyCase } from "../../dialects/value-tables.ts";
import { extrasSubject } from "../subject.ts";
import type { Verdict } from "../verdict.ts";
import { foreignCanary, foreignValue, isForeignKey, malformedValue } from "./backend-keys.ts";
import {
  judgeCache,
  judgeMedia,
  judgeReasoning,
  judgeRefusal,
  judgeSystem,
  judgeText,
} from "./content-judges.ts";
import { withoutClientCredentials } from "./credential-judge.ts";
import { sameRendering, sameValue, show, showChange, verdict } from "./describe.ts";
import type { RequestAttribute } from "./field-names.ts";
import { foreignInMessages } from "./foreign-parts.ts";
import { isAbsent, type Judgement } from "./judgement.ts";
import {
  expressibleValue,
  type NoEquivalentRow,
  partNoEquivalent,
  requestNoEquivalent,
  valueSubject,
} from "./no-equivalent.ts";
import { judgeOrder } from "./ordering.ts";
import { additionsInto } from "./request-additions.ts";
import {
  type AttributePlan,
  PLANS,
  planFor,
  plannedSpelling,
  type RequestPair,
} from "./request-plan.ts";
import { ATTRIBUTE_RULES, type ValueRule } from "./request-rules.ts";
import { judgeCallIds, judgeResultIds, judgeToolResults, judgeToolSchemas } from "./tool-judges.ts";
import { hasValueTable, meaningJudgement } from "./value-meaning.ts";

export { type RequestPair, spelling } from "./request-plan.ts";

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
  if (hasValueTable(pair, attribute)) {
    const byMeaning = meaningJudgement(pair, attribute, asSent, rule.read(pair.forwarded));
    if (byMeaning) return byMeaning;
  }
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
    const byCarrier = carried(rule, pair.forwarded, sent);
    if (byCarrier) return byCarrier;
    // A gateway may pass a field the backend reader does not map as an unknown key: carried
    // only where the backend defines a key of that name (one it does not define is judged
    // `foreign-key` in finish). The field as spelled: the plan's own, or one of its aliases.
    const plainKey = field === plan.field ? plan.plainField : true;
    if (
      plainKey &&
      !isForeignKey(field, pair.backend) &&
      sameValue(pair.forwarded.extras[field], sent)
    ) {
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
  const caseFree = anyCase(pair.backend, attribute);
  if (caseFree && sameIgnoringCase(sent, got)) {
    const detail = `${showChange(sent, got)} (one value in any case in ${pair.backend}: ${caseFree})`;
    return { kind: "preserved", detail, sent, got };
  }
  const byPart = rule.byPart?.(sent, got);
  if (byPart) return byPart;
  return { kind: "mangled", detail: showChange(sent, got), sent, got };
}

/**
 * What the first carrier that holds a value says: the sent value carried (`preserved`, the
 * carrier's cause), or its opposite (`mangled`) where the carrier says so; undefined when no
 * carrier holds a value, or the one that does neither stands for nor contradicts it.
 */
function carried(
  rule: ValueRule,
  forwarded: CanonicalRequest,
  sent: unknown,
): Judgement | undefined {
  for (const carrier of [rule.carrier ?? []].flat()) {
    const value = carrier.read(forwarded);
    if (value === undefined) continue;
    const how = `${show(sent)} → absent, carried as ${carrier.label} ${show(value)}`;
    if (carrier.carries?.(sent, value) ?? true) {
      return { kind: "preserved", detail: how, cause: carrier.cause };
    }
    return carrier.contradicts ? { kind: "mangled", detail: how, sent, got: value } : undefined;
  }
  return undefined;
}

/** Two strings that differ in case only. */
function sameIgnoringCase(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
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
  const plan = planFor(pair.clientDialect, attribute);
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
  // Before saying absent: the value may sit under a key the backend does not define (another
  // dialect's spelling), where the backend never reads it (issue 20, docs/lens.md).
  const foreign =
    foreignValue(attribute, pair.forwarded) ??
    foreignInMessages(attribute, pair.forwarded) ??
    foreignCanary(sent, pair.forwarded, pair.client.extras);
  if (foreign) {
    const detail = `${j.detail}, found under ${foreign.path} ${show(foreign.raw)} (a key ${pair.backend} does not define)`;
    return verdict({
      ...base,
      kind: "mangled",
      detail,
      cause: "foreign-key",
      sent,
      got: foreign.raw,
    });
  }
  const row = requestNoEquivalent(j.rowOf ?? attribute, pair.backend);
  if (row) {
    const detail = `${j.detail} (${pair.backend}: ${row.reason})`;
    return verdict({ ...base, kind: "no-equivalent", detail, sent });
  }
  return verdict({ ...base, kind: "dropped", detail: j.detail, sent });
}

/**
 * A client key no reader maps (kept raw in extras), judged by the same rule as an attribute:
 * the target's absent rows (`extras.<key>`: a documented parameter of the client's dialect the
 * target has no field for) decide first. With a row, absent downstream is `no-equivalent` with
 * the row's reason, and the value under that key is `mangled (foreign-key)`: the target never
 * reads it. Without one, the key must arrive with the same value (`dropped`, `mangled`).
 */
export function judgeUnknownKey(pair: RequestPair, key: string): Verdict | undefined {
  const sent = withoutClientCredentials(key, pair.client.extras[key]);
  // Only credentials: the credential rule judges them (leaked, or clean where they are not).
  if (sent === undefined) return undefined;
  // An own key only: `toString` or `constructor` absent downstream is absent, not a function.
  const raw = Object.hasOwn(pair.forwarded.extras, key) ? pair.forwarded.extras[key] : undefined;
  const got = raw === undefined ? undefined : withoutClientCredentials(key, raw);
  const subject = extrasSubject(key);
  const base = { direction: "request", subject, field: key, sent } as const;
  const row = requestNoEquivalent(subject, pair.backend);
  if (row && got !== undefined) {
    const detail = `${show(sent)} → absent, found under ${key} ${show(got)} (a key ${pair.backend} does not define)`;
    return verdict({ ...base, kind: "mangled", detail, cause: "foreign-key", got });
  }
  if (row) {
    const detail = `${show(sent)} → absent (${pair.backend}: ${row.reason})`;
    return verdict({ ...base, kind: "no-equivalent", detail });
  }
  const kind = got === undefined ? "dropped" : sameValue(sent, got) ? "preserved" : "mangled";
  return verdict({ ...base, kind, detail: showChange(sent, got), got });
}

/** Every request verdict for a read pair: attributes, unknown keys, additions. */
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
  for (const key in pair.client.extras) {
    const v = judgeUnknownKey(pair, key);
    if (v) out.push(v);
  }
  additionsInto(pair, out);
}
