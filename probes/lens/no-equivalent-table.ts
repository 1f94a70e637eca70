import type { Dialect } from "../../dialects/dialect.ts";
import type { ReplyFeature, RequestAttribute } from "./field-names.ts";

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

export interface NoEquivalentRow {
  direction: "request" | "reply";
  subject: RequestAttribute | RefinedSubject | ReplyFeature | `headers.${string}`;
  target: Dialect;
  reason: string;
  see: string;
}

const CHAT = "https://platform.openai.com/docs/api-reference/chat/create";
const CHAT_OBJECT = "https://platform.openai.com/docs/api-reference/chat/object";
const RESPONSES = "https://platform.openai.com/docs/api-reference/responses/create";
const RESPONSES_OBJECT = "https://platform.openai.com/docs/api-reference/responses/object";
const ANTHROPIC = "https://docs.anthropic.com/en/api/messages";
const GEMINI = "https://ai.google.dev/api/generate-content";
const OLLAMA = "https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion";
const CACHING = "https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching";
const THINKING = "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking";
const STRUCTURED = "https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs";

const NOT_ANTHROPIC = ["openai-chat", "openai-responses", "gemini", "ollama"] as const;
const NOT_OPENAI = ["anthropic-messages", "gemini", "ollama"] as const;

function rows(
  direction: NoEquivalentRow["direction"],
  subject: NoEquivalentRow["subject"],
  targets: readonly Dialect[],
  reason: string,
  see: string,
): NoEquivalentRow[] {
  return targets.map((target) => ({ direction, subject, target, reason, see }));
}

export const NO_EQUIVALENT: readonly NoEquivalentRow[] = [
  ...rows("request", "sampling.top-k", ["openai-chat"], "Chat Completions has no top_k", CHAT),
  ...rows("request", "sampling.top-k", ["openai-responses"], "Responses has no top_k", RESPONSES),
  // Decision: reasoning_effort is a level, not a token count. A gateway that turns a budget
  // into an effort bucket carries a different meaning, so the budget has no equivalent.
  ...rows(
    "request",
    "reasoning.budget-tokens",
    ["openai-chat"],
    "reasoning_effort is a level (minimal/low/medium/high), not a token budget",
    `${CHAT}#chat-create-reasoning_effort`,
  ),
  ...rows(
    "request",
    "reasoning.budget-tokens",
    ["openai-responses"],
    "reasoning.effort is a level, not a token budget",
    `${RESPONSES}#responses-create-reasoning`,
  ),
  ...rows("request", "reasoning.budget-tokens", ["ollama"], "think is on/off or a level", OLLAMA),
  ...rows(
    "request",
    "reasoning.summary",
    ["anthropic-messages", "openai-chat", "gemini", "ollama"],
    "only the Responses API asks for a reasoning summary",
    `${RESPONSES}#responses-create-reasoning`,
  ),
  ...rows("request", "user", ["gemini"], "generateContent has no end-user id", GEMINI),
  ...rows("request", "user", ["ollama"], "/api/chat has no end-user id", OLLAMA),
  ...rows(
    "request",
    "metadata",
    ["anthropic-messages"],
    "Anthropic metadata accepts only user_id",
    `${ANTHROPIC}#body-metadata`,
  ),
  ...rows("request", "metadata", ["gemini"], "generateContent has no request metadata", GEMINI),
  ...rows("request", "metadata", ["ollama"], "/api/chat has no request metadata", OLLAMA),
  ...rows("request", "service-tier", ["gemini"], "generateContent has no service tier", GEMINI),
  ...rows("request", "service-tier", ["ollama"], "/api/chat has no service tier", OLLAMA),
  ...rows("request", "sampling.stop", ["openai-responses"], "Responses has no stop", RESPONSES),
  ...rows(
    "request",
    "sampling.seed",
    ["anthropic-messages"],
    "Messages has no seed",
    `${ANTHROPIC}#body`,
  ),
  ...rows("request", "sampling.seed", ["openai-responses"], "Responses has no seed", RESPONSES),
  ...rows(
    "request",
    "sampling.presence-penalty",
    ["anthropic-messages"],
    "Messages has no presence_penalty",
    `${ANTHROPIC}#body`,
  ),
  ...rows(
    "request",
    "sampling.presence-penalty",
    ["openai-responses"],
    "Responses has no presence_penalty",
    RESPONSES,
  ),
  ...rows(
    "request",
    "sampling.frequency-penalty",
    ["anthropic-messages"],
    "Messages has no frequency_penalty",
    `${ANTHROPIC}#body`,
  ),
  ...rows(
    "request",
    "sampling.frequency-penalty",
    ["openai-responses"],
    "Responses has no frequency_penalty",
    RESPONSES,
  ),
  ...rows("request", "sampling.n", ["anthropic-messages"], "one reply per request", ANTHROPIC),
  ...rows("request", "sampling.n", ["openai-responses"], "one reply per request", RESPONSES),
  ...rows("request", "sampling.n", ["ollama"], "one reply per request", OLLAMA),
  ...rows(
    "request",
    "parallel-tool-calls",
    ["gemini"],
    "functionCallingConfig has no parallel-call switch",
    "https://ai.google.dev/api/caching#FunctionCallingConfig",
  ),
  ...rows("request", "parallel-tool-calls", ["ollama"], "/api/chat has no parallel switch", OLLAMA),
  ...rows("request", "tool-choice", ["ollama"], "/api/chat has no tool_choice", OLLAMA),
  ...rows(
    "request",
    "tools.strict",
    ["gemini"],
    "FunctionDeclaration has no strict flag",
    "https://ai.google.dev/api/caching#FunctionDeclaration",
  ),
  ...rows("request", "tools.strict", ["ollama"], "Ollama tools have no strict flag", OLLAMA),
  ...rows(
    "request",
    "messages.tool-result.is-error",
    ["openai-chat"],
    "tool messages have no error flag",
    `${CHAT}#chat-create-messages`,
  ),
  ...rows(
    "request",
    "messages.tool-result.is-error",
    ["openai-responses"],
    "function_call_output has no error flag",
    `${RESPONSES}#responses-create-input`,
  ),
  // Gemini has one: functionResponse.response {"error": ...} (see the FunctionResponse doc).
  ...rows("request", "messages.tool-result.is-error", ["ollama"], "no error flag", OLLAMA),
  ...rows(
    "request",
    "messages.thinking",
    ["openai-chat"],
    "assistant messages have no reasoning field",
    `${CHAT}#chat-create-messages`,
  ),
  // Responses carries prior reasoning as a reasoning item (summary + encrypted_content), and
  // Gemini a signature as thoughtSignature: a gateway can round-trip them, so no rows there.
  ...rows(
    "request",
    "messages.thinking.signature",
    ["openai-chat", "ollama"],
    "no place for a reasoning signature",
    THINKING,
  ),
  // A Gemini thought signature rides on the call itself; these dialects' calls have no key
  // for it (Anthropic signs thinking blocks, not tool_use blocks).
  ...rows(
    "request",
    "messages.tool-call.signature",
    ["anthropic-messages"],
    "a tool_use block has only id, name and input",
    `${ANTHROPIC}#body-messages`,
  ),
  ...rows(
    "request",
    "messages.tool-call.signature",
    ["openai-responses"],
    "a function_call item has no signature",
    `${RESPONSES}#responses-create-input`,
  ),
  ...rows(
    "request",
    "messages.tool-call.signature",
    ["ollama"],
    "a tool call has only a function name and arguments",
    OLLAMA,
  ),
  ...rows(
    "request",
    "messages.reasoning",
    ["anthropic-messages"],
    "prior thinking must carry an Anthropic-issued signature",
    THINKING,
  ),
  ...rows("request", "messages.cache", NOT_ANTHROPIC, "no cache_control markers", CACHING),
  ...rows("request", "tools.cache", NOT_ANTHROPIC, "no cache_control markers", CACHING),
  ...rows("request", "cache", NOT_ANTHROPIC, "no cache_control markers", CACHING),
  ...rows(
    "request",
    "messages.audio",
    ["anthropic-messages"],
    "no audio input blocks",
    `${ANTHROPIC}#body-messages`,
  ),
  ...rows("request", "messages.audio", ["ollama"], "images only", OLLAMA),
  ...rows("request", "messages.document", ["ollama"], "images only", OLLAMA),
  ...rows(
    "request",
    "messages.image.url",
    ["ollama"],
    "images are base64 data only, no URL",
    OLLAMA,
  ),
  ...rows(
    "request",
    "messages.document.url",
    ["openai-chat"],
    "a file part has file_data or file_id, no URL",
    `${CHAT}#chat-create-messages`,
  ),
  ...rows(
    "request",
    "tool-choice.allowed",
    ["anthropic-messages"],
    "tool_choice is auto, any, tool or none: no allowed subset (one required tool is `tool`)",
    `${ANTHROPIC}#body-tool-choice`,
  ),
  ...rows(
    "request",
    "response-format.json-object",
    ["anthropic-messages"],
    "structured outputs take a JSON schema: there is no schema-less JSON mode",
    STRUCTURED,
  ),
  ...rows(
    "request",
    "response-format.strict",
    ["anthropic-messages"],
    "output_config.format has only type and schema: no strict flag",
    STRUCTURED,
  ),
  ...rows(
    "request",
    "response-format.strict",
    ["gemini"],
    "generationConfig has a response schema but no strict flag",
    "https://ai.google.dev/api/generate-content#generationconfig",
  ),
  ...rows(
    "request",
    "response-format.strict",
    ["ollama"],
    'format is "json" or a schema, with no strict flag',
    OLLAMA,
  ),
  ...rows(
    "request",
    "headers.anthropic-beta",
    NOT_ANTHROPIC,
    "an Anthropic-only header",
    "https://docs.anthropic.com/en/api/beta-headers",
  ),
  ...rows(
    "request",
    "headers.anthropic-version",
    NOT_ANTHROPIC,
    "an Anthropic-only header",
    "https://docs.anthropic.com/en/api/versioning",
  ),
  ...rows("request", "headers.openai-beta", NOT_OPENAI, "an OpenAI-only header", RESPONSES),
  ...rows(
    "reply",
    "stop_sequence",
    ["openai-chat"],
    'finish_reason "stop" does not name the sequence',
    CHAT_OBJECT,
  ),
  ...rows(
    "reply",
    "stop_sequence",
    ["openai-responses"],
    "the response does not name the sequence",
    RESPONSES_OBJECT,
  ),
  ...rows(
    "reply",
    "thinking.signature",
    ["openai-chat"],
    "the message has no place for a signature",
    CHAT_OBJECT,
  ),
  ...rows(
    "reply",
    "usage.cache_write_tokens",
    ["openai-chat"],
    "usage reports cached reads only",
    CHAT_OBJECT,
  ),
  ...rows(
    "reply",
    "usage.cache_write_tokens",
    ["openai-responses"],
    "usage reports cached reads only",
    RESPONSES_OBJECT,
  ),
  ...rows(
    "reply",
    "usage.reasoning_tokens",
    ["anthropic-messages"],
    "usage has no reasoning-token count",
    `${ANTHROPIC}#response-usage`,
  ),
];
