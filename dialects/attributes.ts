/**
 * The canonical vocabulary every dialect's field table and the lens share: the request
 * attributes (named after the paths in canonical.ts), the refined subjects a no-equivalent
 * row can name (a kind of an attribute), the reply features, and how a value attribute is got
 * from and set on a canonical request.
 *
 * Adding a canonical request attribute: its field in canonical.ts, its name here (and its
 * accessor when it is one value), one row in each dialect's field table (`dialects/<d>/fields.ts`:
 * where the dialect carries it, or why it cannot), and a probe.
 */
import type { CanonicalRequest } from "./canonical.ts";

/** Canonical request attributes, in the order verdicts are given. */
export const REQUEST_ATTRIBUTES = [
  "model",
  "system",
  "messages",
  "messages.text",
  "messages.image",
  "messages.document",
  "messages.audio",
  "messages.cache",
  "messages.tool-call",
  "messages.tool-call.id",
  "messages.tool-call.name",
  "messages.tool-call.arguments",
  "messages.tool-call.signature",
  "messages.tool-result",
  "messages.tool-result.call-id",
  "messages.tool-result.is-error",
  "messages.thinking",
  "messages.thinking.signature",
  "messages.reasoning",
  "messages.refusal",
  "tools",
  "tools.name",
  "tools.description",
  "tools.schema",
  "tools.strict",
  "tools.cache",
  "tool-choice",
  "parallel-tool-calls",
  "sampling.temperature",
  "sampling.top-p",
  "sampling.top-k",
  "sampling.max-tokens",
  "sampling.stop",
  "sampling.seed",
  "sampling.presence-penalty",
  "sampling.frequency-penalty",
  "sampling.n",
  "sampling.logit-bias",
  "response-format",
  "reasoning.mode",
  "reasoning.budget-tokens",
  "reasoning.effort",
  "reasoning.summary",
  "metadata",
  "user",
  "stream",
  "stream-options.include-usage",
  "service-tier",
  "verbosity",
  "store",
  "logprobs",
  "top-logprobs",
  "prediction",
  "context-management",
  "mcp-servers",
  "cache",
] as const;

export type RequestAttribute = (typeof REQUEST_ATTRIBUTES)[number];

export function isRequestAttribute(value: unknown): value is RequestAttribute {
  return typeof value === "string" && (REQUEST_ATTRIBUTES as readonly string[]).includes(value);
}

/** Refined subjects, each with the attribute it is a kind of. */
export const REFINED_SUBJECTS = {
  /** An image given by URL (not a data URL). */
  "messages.image.url": "messages.image",
  /** A document given by URL (not a data URL). */
  "messages.document.url": "messages.document",
  /** A tool choice naming an allowed subset of the tools. */
  "tool-choice.allowed": "tool-choice",
  /** JSON mode without a schema. */
  "response-format.json-object": "response-format",
  /** The `strict` flag of a JSON schema format (the type and schema are compared apart). */
  "response-format.strict": "response-format",
} as const satisfies Record<string, RequestAttribute>;

export type RefinedSubject = keyof typeof REFINED_SUBJECTS;

export function isRefinedSubject(subject: string): subject is RefinedSubject {
  return Object.hasOwn(REFINED_SUBJECTS, subject);
}

/**
 * Reply features, named the same for every dialect: what an upstream reply can carry that the
 * client should receive.
 */
export const REPLY_FEATURES = [
  "id",
  "text",
  "finish_reason",
  "stop_sequence",
  "tool_calls[].id",
  "tool_calls[].name",
  "tool_calls[].arguments",
  "thinking",
  "thinking.signature",
  "reasoning",
  "refusal",
  "usage.input_tokens",
  "usage.output_tokens",
  "usage.cache_read_tokens",
  "usage.cache_write_tokens",
  "usage.reasoning_tokens",
  "error.status",
  "error.message",
  "error.type",
  "error.internals",
  "stream.terminal",
  "stream.framing",
] as const;

export type ReplyFeature = (typeof REPLY_FEATURES)[number];

export function isReplyFeature(field: string): field is ReplyFeature {
  return (REPLY_FEATURES as readonly string[]).includes(field);
}

/** How one value attribute is read from and written to a canonical request. */
export interface Accessor {
  get(request: CanonicalRequest): unknown;
  /** Sets the value, making its container (`sampling`, `reasoning`, ...) where missing. */
  set(request: CanonicalRequest, value: unknown): void;
}

type TopKey =
  | "model"
  | "parallelToolCalls"
  | "metadata"
  | "user"
  | "stream"
  | "serviceTier"
  | "verbosity"
  | "store"
  | "logprobs"
  | "topLogprobs"
  | "prediction"
  | "contextManagement"
  | "mcpServers"
  | "cache";

function top(key: TopKey): Accessor {
  return {
    get: (r) => r[key],
    set: (r, v) => {
      (r as unknown as Record<string, unknown>)[key] = v;
    },
  };
}

function sampling(key: keyof CanonicalRequest["sampling"]): Accessor {
  return {
    get: (r) => r.sampling[key],
    set: (r, v) => {
      (r.sampling as Record<string, unknown>)[key] = v;
    },
  };
}

function reasoning(key: "effort" | "summary" | "budgetTokens"): Accessor {
  return {
    get: (r) => r.reasoning?.[key],
    set: (r, v) => {
      r.reasoning ??= {};
      (r.reasoning as Record<string, unknown>)[key] = v;
    },
  };
}

/**
 * The attributes that are one value each, and where that value sits on a canonical request:
 * the field tables read and write them by these (a row and a wire codec each), and the lens
 * compares them by value unless its rules say more.
 */
export const VALUE_ACCESSORS = {
  model: top("model"),
  "parallel-tool-calls": top("parallelToolCalls"),
  "sampling.temperature": sampling("temperature"),
  "sampling.top-p": sampling("topP"),
  "sampling.top-k": sampling("topK"),
  "sampling.max-tokens": sampling("maxTokens"),
  "sampling.stop": sampling("stop"),
  "sampling.seed": sampling("seed"),
  "sampling.presence-penalty": sampling("presencePenalty"),
  "sampling.frequency-penalty": sampling("frequencyPenalty"),
  "sampling.n": sampling("n"),
  "sampling.logit-bias": sampling("logitBias"),
  "reasoning.budget-tokens": reasoning("budgetTokens"),
  "reasoning.effort": reasoning("effort"),
  "reasoning.summary": reasoning("summary"),
  metadata: top("metadata"),
  user: top("user"),
  stream: top("stream"),
  "stream-options.include-usage": {
    get: (r) => r.streamOptions?.includeUsage,
    set: (r, v) => {
      r.streamOptions = { ...r.streamOptions, includeUsage: v as boolean };
    },
  },
  "service-tier": top("serviceTier"),
  verbosity: top("verbosity"),
  store: top("store"),
  logprobs: top("logprobs"),
  "top-logprobs": top("topLogprobs"),
  prediction: top("prediction"),
  "context-management": top("contextManagement"),
  "mcp-servers": top("mcpServers"),
  cache: top("cache"),
} as const satisfies Partial<Record<RequestAttribute, Accessor>>;

export type ValueAttribute = keyof typeof VALUE_ACCESSORS;
