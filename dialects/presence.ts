/**
 * Whether a canonical request carries a request subject (an attribute or a refined kind of
 * one): what a writer checks against its dialect's absent rows to say what it left out.
 */
import {
  type RefinedSubject,
  type RequestAttribute,
  VALUE_ACCESSORS,
  type ValueAttribute,
} from "./attributes.ts";
import type { CanonicalRequest, Part } from "./canonical.ts";

/** Every part of the system prompt and the messages, tool results' content included. */
function* partsOf(r: CanonicalRequest): Generator<Part> {
  yield* r.system;
  for (const m of r.messages) {
    for (const p of m.parts) {
      yield p;
      if (p.type === "tool-result") yield* p.content;
    }
  }
}

function some(r: CanonicalRequest, test: (p: Part) => boolean): boolean {
  for (const p of partsOf(r)) if (test(p)) return true;
  return false;
}

const ofType = (type: Part["type"]) => (r: CanonicalRequest) => some(r, (p) => p.type === type);

/** A media part given by URL, not inline (a data URL is inline). */
const byUrl = (type: "image" | "document") => (r: CanonicalRequest) =>
  some(r, (p) => p.type === type && p.source.kind === "url" && !p.source.url.startsWith("data:"));

const cached = (p: Part) => "cache" in p && p.cache !== undefined;

/** The subjects whose presence is more than a value attribute's accessor reading a value. */
const PRESENCE_TESTS = {
  system: (r) => r.system.length > 0 || r.messages.some((m) => m.role === "system"),
  messages: (r) => r.messages.length > 0,
  "messages.text": ofType("text"),
  "messages.image": ofType("image"),
  "messages.document": ofType("document"),
  "messages.audio": ofType("audio"),
  "messages.cache": (r) => some(r, cached),
  "messages.tool-call": ofType("tool-call"),
  "messages.tool-call.id": ofType("tool-call"),
  "messages.tool-call.name": ofType("tool-call"),
  "messages.tool-call.arguments": ofType("tool-call"),
  "messages.tool-call.signature": (r) =>
    some(r, (p) => p.type === "tool-call" && p.signature !== undefined),
  "messages.tool-result": ofType("tool-result"),
  "messages.tool-result.call-id": ofType("tool-result"),
  "messages.tool-result.is-error": (r) =>
    some(r, (p) => p.type === "tool-result" && p.isError !== undefined),
  "messages.thinking": ofType("thinking"),
  "messages.thinking.signature": (r) =>
    some(r, (p) => p.type === "thinking" && p.signature !== undefined),
  "messages.reasoning": ofType("reasoning"),
  "messages.refusal": ofType("refusal"),
  tools: (r) => r.tools.length > 0,
  "tools.name": (r) => r.tools.length > 0,
  "tools.description": (r) => r.tools.some((t) => t.description !== undefined),
  "tools.schema": (r) => r.tools.some((t) => t.schema !== undefined),
  "tools.strict": (r) => r.tools.some((t) => t.strict !== undefined),
  "tools.cache": (r) => r.tools.some((t) => t.cache !== undefined),
  "tool-choice": (r) => r.toolChoice !== undefined,
  "response-format": (r) => r.responseFormat !== undefined,
  "reasoning.mode": (r) => r.reasoning?.mode !== undefined,
  metadata: (r) => r.metadata !== undefined && Object.keys(r.metadata).length > 0,
  "messages.image.url": byUrl("image"),
  "messages.document.url": byUrl("document"),
  "tool-choice.allowed": (r) => r.toolChoice?.mode === "allowed",
  "response-format.json-object": (r) => r.responseFormat?.type === "json_object",
  "response-format.strict": (r) => r.responseFormat?.strict !== undefined,
} as const satisfies Record<
  Exclude<RequestAttribute, ValueAttribute> | RefinedSubject,
  (r: CanonicalRequest) => boolean
> &
  Partial<Record<ValueAttribute, (r: CanonicalRequest) => boolean>>;

type PresenceTest = (r: CanonicalRequest) => boolean;

/** Every subject's test: a value attribute is carried when its accessor reads a value. */
export const PRESENCE: Readonly<Record<RequestAttribute | RefinedSubject, PresenceTest>> = {
  ...(Object.fromEntries(
    Object.entries(VALUE_ACCESSORS).map(([attribute, accessor]) => [
      attribute,
      (r: CanonicalRequest) => accessor.get(r) !== undefined,
    ]),
  ) as Record<ValueAttribute, PresenceTest>),
  ...PRESENCE_TESTS,
};

export function carriesSubject(
  request: CanonicalRequest,
  subject: RequestAttribute | RefinedSubject,
): boolean {
  return PRESENCE[subject](request);
}
