/**
 * Whether a canonical request carries a request subject (an attribute or a refined kind of
 * one): what a writer checks against its dialect's absent rows to say what it left out.
 */
import type { RefinedSubject, RequestAttribute } from "./attributes.ts";
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

export const PRESENCE = {
  model: (r) => r.model !== undefined,
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
  "parallel-tool-calls": (r) => r.parallelToolCalls !== undefined,
  "sampling.temperature": (r) => r.sampling.temperature !== undefined,
  "sampling.top-p": (r) => r.sampling.topP !== undefined,
  "sampling.top-k": (r) => r.sampling.topK !== undefined,
  "sampling.max-tokens": (r) => r.sampling.maxTokens !== undefined,
  "sampling.stop": (r) => r.sampling.stop !== undefined,
  "sampling.seed": (r) => r.sampling.seed !== undefined,
  "sampling.presence-penalty": (r) => r.sampling.presencePenalty !== undefined,
  "sampling.frequency-penalty": (r) => r.sampling.frequencyPenalty !== undefined,
  "sampling.n": (r) => r.sampling.n !== undefined,
  "response-format": (r) => r.responseFormat !== undefined,
  "reasoning.mode": (r) => r.reasoning?.mode !== undefined,
  "reasoning.budget-tokens": (r) => r.reasoning?.budgetTokens !== undefined,
  "reasoning.effort": (r) => r.reasoning?.effort !== undefined,
  "reasoning.summary": (r) => r.reasoning?.summary !== undefined,
  metadata: (r) => r.metadata !== undefined && Object.keys(r.metadata).length > 0,
  user: (r) => r.user !== undefined,
  stream: (r) => r.stream !== undefined,
  "stream-options.include-usage": (r) => r.streamOptions?.includeUsage !== undefined,
  "service-tier": (r) => r.serviceTier !== undefined,
  cache: (r) => r.cache !== undefined,
  "messages.image.url": byUrl("image"),
  "messages.document.url": byUrl("document"),
  "tool-choice.allowed": (r) => r.toolChoice?.mode === "allowed",
  "response-format.json-object": (r) => r.responseFormat?.type === "json_object",
  "response-format.strict": (r) => r.responseFormat?.strict !== undefined,
} as const satisfies Record<RequestAttribute | RefinedSubject, (r: CanonicalRequest) => boolean>;

export function carriesSubject(
  request: CanonicalRequest,
  subject: RequestAttribute | RefinedSubject,
): boolean {
  return PRESENCE[subject](request);
}
