/**
 * Personas: the mock validating a request as a strict provider does, and answering with that
 * provider's real error status and body. A persona is data: a list of rules, each with an id,
 * a description, citations (provider docs or a public issue that shows the real error), the
 * dialects it applies to, and a check. The persona's `reject` renders a violation in the
 * provider's own error shape. Adding a persona is one small file that calls `definePersona`.
 */
import type { Dialect } from "../../dialects/dialect.ts";
import { isRecord, type JsonRecord } from "../../dialects/json.ts";

export interface PersonaRequest {
  dialect: Dialect;
  path: string;
  /** The parsed JSON body (anything: a persona only judges JSON objects). */
  body: unknown;
  headers: [string, string][];
}

export interface PersonaRejection {
  status: number;
  /** The provider's real error JSON (an object, or for Google's OpenAI endpoint an array). */
  body: unknown;
  /** The id of the rule that rejected, e.g. `deepseek/tool-calls-answered`. */
  rule: string;
}

export interface Persona {
  name: string;
  description: string;
  check(req: PersonaRequest): PersonaRejection | undefined;
  /** The rules, in the order they are checked (the first violated one answers). */
  rules: readonly PersonaRule[];
}

/** What a rule found wrong: the provider's message, and where it points when it says so. */
export interface Violation {
  message: string;
  /** A dotted path into the body (`messages.3.content`), for shapes that carry one. */
  field?: string;
  /** Status override when a provider answers this rule with something other than its usual. */
  status?: number;
}

export interface PersonaRule {
  /** `<persona>/<rule>`; the fixture file `fixtures/<persona>/<rule>.json` tests it. */
  id: string;
  description: string;
  /** Provider docs or public issues showing the rule and its real error. */
  citations: readonly string[];
  /** Dialects (by path) the rule applies to; requests in other dialects pass. */
  dialects: readonly Dialect[];
  check(body: JsonRecord, req: PersonaRequest): Violation | undefined;
}

export interface PersonaDefinition {
  name: string;
  description: string;
  rules: readonly PersonaRule[];
  /**
   * The provider's error status and body for a violation (`req`: a provider serving two
   * dialects answers each in its own error shape).
   */
  reject(violation: Violation, req: PersonaRequest): { status: number; body: unknown };
}

export function definePersona(definition: PersonaDefinition): Persona {
  const { name, description, rules, reject } = definition;
  return {
    name,
    description,
    rules,
    check(req) {
      // Non-JSON and non-object bodies are the mock's own malformed-input path, not a persona's.
      if (!isRecord(req.body)) return undefined;
      for (const rule of rules) {
        if (!rule.dialects.includes(req.dialect)) continue;
        const violation = rule.check(req.body, req);
        if (violation) return { ...reject(violation, req), rule: rule.id };
      }
      return undefined;
    },
  };
}
