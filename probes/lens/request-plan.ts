/**
 * The client's side of the request direction, worked out once per client dialect: each
 * attribute its field table spells, with its rule, and the spelling a verdict names it by
 * (a top-level alias when the body used one). judge-request.ts judges with these plans;
 * request-additions.ts names what a gateway added in the same spelling.
 */
import type { CanonicalRequest, ToolChoice } from "../../dialects/canonical.ts";
import { CLIENT_DIALECTS, type ClientDialect, type Dialect } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import { toolChoiceMeaning } from "../../dialects/tool-choice.ts";
import { REQUEST_ATTRIBUTES, REQUEST_FIELD_NAMES, type RequestAttribute } from "./field-names.ts";
import { ATTRIBUTE_RULES, type AttributeRule } from "./request-rules.ts";

export interface RequestPair {
  clientDialect: ClientDialect;
  backend: Dialect;
  client: CanonicalRequest;
  forwarded: CanonicalRequest;
  /** The client body as sent, to name a field by the alias the client used. */
  clientBody?: unknown;
  /** The forwarded body as sent: an empty value (`system: []`) leaves no trace in the reading. */
  forwardedBody?: unknown;
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
export interface AttributePlan {
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

export const PLANS = Object.fromEntries(CLIENT_DIALECTS.map((d) => [d, planOf(d)])) as Record<
  ClientDialect,
  AttributePlan[]
>;

const PLAN_BY_ATTRIBUTE = Object.fromEntries(
  CLIENT_DIALECTS.map((d) => [d, new Map(PLANS[d].map((p) => [p.attribute, p]))]),
) as Record<ClientDialect, Map<RequestAttribute, AttributePlan>>;

/** The field a planned attribute is named by: a top-level alias when the body used it. */
export function plannedSpelling(plan: AttributePlan, clientBody: unknown): string {
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
  const plan = planFor(pair.clientDialect, attribute);
  return plan ? plannedSpelling(plan, pair.clientBody) : undefined;
}

/** A client dialect's plan for one attribute, when its table spells the attribute. */
export function planFor(
  dialect: ClientDialect,
  attribute: RequestAttribute,
): AttributePlan | undefined {
  return PLAN_BY_ATTRIBUTE[dialect].get(attribute);
}
