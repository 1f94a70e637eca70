/**
 * The spelling tables, one per client dialect: each canonical request attribute and its
 * dotted spelling in that dialect, with the page that documents it. The conventions are
 * described in field-names.ts, which is where callers look them up.
 */
import type { ClientDialect } from "../../dialects/dialect.ts";
import type { FieldSpelling, RequestAttribute } from "./field-names.ts";

export type SpellingTable = Partial<Record<RequestAttribute, FieldSpelling>>;

const ANTHROPIC = "https://docs.anthropic.com/en/api/messages";
const CHAT = "https://platform.openai.com/docs/api-reference/chat/create";
const RESPONSES = "https://platform.openai.com/docs/api-reference/responses/create";

const anthropicMessages = {
  model: { field: "model", see: `${ANTHROPIC}#body-model` },
  system: { field: "system", see: `${ANTHROPIC}#body-system` },
  messages: { field: "messages", see: `${ANTHROPIC}#body-messages` },
  "messages.text": { field: "messages[].content[].text", see: `${ANTHROPIC}#body-messages` },
  "messages.image": { field: "messages[].content[].image", see: `${ANTHROPIC}#body-messages` },
  "messages.document": {
    field: "messages[].content[].document",
    see: "https://docs.anthropic.com/en/docs/build-with-claude/pdf-support",
  },
  "messages.cache": {
    field: "messages[].content[].cache_control",
    see: "https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching",
  },
  "messages.tool-call": {
    field: "messages[].content[].tool_use",
    see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
  },
  "messages.tool-call.id": {
    field: "messages[].content[].id",
    see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
  },
  "messages.tool-call.name": {
    field: "messages[].content[].name",
    see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
  },
  "messages.tool-call.arguments": {
    field: "messages[].content[].input",
    see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
  },
  "messages.tool-result": {
    field: "messages[].content[].tool_result",
    see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
  },
  "messages.tool-result.call-id": {
    field: "messages[].content[].tool_use_id",
    see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
  },
  "messages.tool-result.is-error": {
    field: "messages[].content[].is_error",
    see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
  },
  "messages.thinking": {
    field: "messages[].content[].thinking",
    see: "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking",
  },
  "messages.thinking.signature": {
    field: "messages[].content[].signature",
    see: "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking",
  },
  tools: { field: "tools", see: `${ANTHROPIC}#body-tools` },
  "tools.name": { field: "tools[].name", see: `${ANTHROPIC}#body-tools` },
  "tools.description": { field: "tools[].description", see: `${ANTHROPIC}#body-tools` },
  "tools.schema": { field: "tools[].input_schema", see: `${ANTHROPIC}#body-tools` },
  "tools.strict": {
    field: "tools[].strict",
    see: "https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs",
  },
  "tools.cache": {
    field: "tools[].cache_control",
    see: "https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching",
  },
  "tool-choice": { field: "tool_choice", see: `${ANTHROPIC}#body-tool-choice` },
  "parallel-tool-calls": {
    field: "tool_choice.disable_parallel_tool_use",
    see: `${ANTHROPIC}#body-tool-choice`,
  },
  "sampling.temperature": { field: "temperature", see: `${ANTHROPIC}#body-temperature` },
  "sampling.top-p": { field: "top_p", see: `${ANTHROPIC}#body-top-p` },
  "sampling.top-k": { field: "top_k", see: `${ANTHROPIC}#body-top-k` },
  "sampling.max-tokens": { field: "max_tokens", see: `${ANTHROPIC}#body-max-tokens` },
  "sampling.stop": { field: "stop_sequences", see: `${ANTHROPIC}#body-stop-sequences` },
  "response-format": {
    // GA spelling; `output_format` is the original beta spelling (structured-outputs-2025-11-13).
    field: "output_config.format",
    aliases: ["output_format"],
    see: "https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs",
  },
  "reasoning.mode": { field: "thinking.type", see: `${ANTHROPIC}#body-thinking` },
  "reasoning.budget-tokens": { field: "thinking.budget_tokens", see: `${ANTHROPIC}#body-thinking` },
  "reasoning.effort": {
    field: "output_config.effort",
    see: "https://docs.anthropic.com/en/docs/build-with-claude/effort",
  },
  user: { field: "metadata.user_id", see: `${ANTHROPIC}#body-metadata` },
  stream: { field: "stream", see: `${ANTHROPIC}#body-stream` },
  "service-tier": { field: "service_tier", see: `${ANTHROPIC}#body-service-tier` },
  cache: {
    field: "cache_control",
    see: "https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching",
  },
} as const satisfies SpellingTable;

const openaiChat = {
  model: { field: "model", see: `${CHAT}#chat-create-model` },
  system: {
    field: "messages[role=system]",
    aliases: ["messages[role=developer]"],
    see: `${CHAT}#chat-create-messages`,
  },
  messages: { field: "messages", see: `${CHAT}#chat-create-messages` },
  "messages.text": {
    field: "messages[].content",
    aliases: ["messages[].content[].text"],
    see: `${CHAT}#chat-create-messages`,
  },
  "messages.image": {
    field: "messages[].content[].image_url",
    see: `${CHAT}#chat-create-messages`,
  },
  "messages.document": { field: "messages[].content[].file", see: `${CHAT}#chat-create-messages` },
  "messages.audio": {
    field: "messages[].content[].input_audio",
    see: `${CHAT}#chat-create-messages`,
  },
  "messages.tool-call": { field: "messages[].tool_calls", see: `${CHAT}#chat-create-messages` },
  "messages.tool-call.id": {
    field: "messages[].tool_calls[].id",
    see: `${CHAT}#chat-create-messages`,
  },
  "messages.tool-call.name": {
    field: "messages[].tool_calls[].function.name",
    see: `${CHAT}#chat-create-messages`,
  },
  "messages.tool-call.arguments": {
    field: "messages[].tool_calls[].function.arguments",
    see: `${CHAT}#chat-create-messages`,
  },
  // Gemini's OpenAI-compatible endpoint returns a call's thought signature here and
  // requires it back on the next turn (Gemini 3 rejects a call without it).
  "messages.tool-call.signature": {
    field: "messages[].tool_calls[].extra_content.google.thought_signature",
    see: "https://ai.google.dev/gemini-api/docs/thought-signatures",
  },
  "messages.tool-result": { field: "messages[role=tool]", see: `${CHAT}#chat-create-messages` },
  "messages.tool-result.call-id": {
    field: "messages[].tool_call_id",
    see: `${CHAT}#chat-create-messages`,
  },
  "messages.reasoning": {
    field: "messages[].reasoning_content",
    see: "https://api-docs.deepseek.com/guides/reasoning_model",
  },
  "messages.refusal": { field: "messages[].refusal", see: `${CHAT}#chat-create-messages` },
  tools: { field: "tools", see: `${CHAT}#chat-create-tools` },
  "tools.name": { field: "tools[].function.name", see: `${CHAT}#chat-create-tools` },
  "tools.description": { field: "tools[].function.description", see: `${CHAT}#chat-create-tools` },
  "tools.schema": { field: "tools[].function.parameters", see: `${CHAT}#chat-create-tools` },
  "tools.strict": { field: "tools[].function.strict", see: `${CHAT}#chat-create-tools` },
  "tool-choice": { field: "tool_choice", see: `${CHAT}#chat-create-tool_choice` },
  "parallel-tool-calls": {
    field: "parallel_tool_calls",
    see: `${CHAT}#chat-create-parallel_tool_calls`,
  },
  "sampling.temperature": { field: "temperature", see: `${CHAT}#chat-create-temperature` },
  "sampling.top-p": { field: "top_p", see: `${CHAT}#chat-create-top_p` },
  "sampling.max-tokens": {
    field: "max_tokens",
    aliases: ["max_completion_tokens"],
    see: `${CHAT}#chat-create-max_completion_tokens`,
  },
  "sampling.stop": { field: "stop", see: `${CHAT}#chat-create-stop` },
  "sampling.seed": { field: "seed", see: `${CHAT}#chat-create-seed` },
  "sampling.presence-penalty": {
    field: "presence_penalty",
    see: `${CHAT}#chat-create-presence_penalty`,
  },
  "sampling.frequency-penalty": {
    field: "frequency_penalty",
    see: `${CHAT}#chat-create-frequency_penalty`,
  },
  "sampling.n": { field: "n", see: `${CHAT}#chat-create-n` },
  "response-format": { field: "response_format", see: `${CHAT}#chat-create-response_format` },
  "reasoning.effort": { field: "reasoning_effort", see: `${CHAT}#chat-create-reasoning_effort` },
  metadata: { field: "metadata", see: `${CHAT}#chat-create-metadata` },
  user: { field: "user", aliases: ["safety_identifier"], see: `${CHAT}#chat-create-user` },
  stream: { field: "stream", see: `${CHAT}#chat-create-stream` },
  "stream-options.include-usage": {
    field: "stream_options.include_usage",
    see: `${CHAT}#chat-create-stream_options`,
  },
  "service-tier": { field: "service_tier", see: `${CHAT}#chat-create-service_tier` },
} as const satisfies SpellingTable;

const openaiResponses = {
  model: { field: "model", see: `${RESPONSES}#responses-create-model` },
  system: {
    field: "instructions",
    aliases: ["input[role=system]", "input[role=developer]"],
    see: `${RESPONSES}#responses-create-instructions`,
  },
  messages: { field: "input", see: `${RESPONSES}#responses-create-input` },
  "messages.text": {
    field: "input[].content[].text",
    aliases: ["input[].content"],
    see: `${RESPONSES}#responses-create-input`,
  },
  "messages.image": {
    field: "input[].content[].image_url",
    see: `${RESPONSES}#responses-create-input`,
  },
  "messages.document": {
    field: "input[].content[].file_data",
    see: `${RESPONSES}#responses-create-input`,
  },
  "messages.tool-call": {
    field: "input[].function_call",
    see: `${RESPONSES}#responses-create-input`,
  },
  "messages.tool-call.id": { field: "input[].call_id", see: `${RESPONSES}#responses-create-input` },
  "messages.tool-call.name": { field: "input[].name", see: `${RESPONSES}#responses-create-input` },
  "messages.tool-call.arguments": {
    field: "input[].arguments",
    see: `${RESPONSES}#responses-create-input`,
  },
  "messages.tool-result": {
    field: "input[].function_call_output",
    see: `${RESPONSES}#responses-create-input`,
  },
  // The output item links to its call by the same key the call carries.
  "messages.tool-result.call-id": {
    field: "input[].function_call_output.call_id",
    see: `${RESPONSES}#responses-create-input`,
  },
  "messages.thinking": { field: "input[].reasoning", see: `${RESPONSES}#responses-create-input` },
  "messages.thinking.signature": {
    field: "input[].encrypted_content",
    see: `${RESPONSES}#responses-create-include`,
  },
  "messages.refusal": {
    field: "input[].content[].refusal",
    see: `${RESPONSES}#responses-create-input`,
  },
  tools: { field: "tools", see: `${RESPONSES}#responses-create-tools` },
  "tools.name": { field: "tools[].name", see: `${RESPONSES}#responses-create-tools` },
  "tools.description": { field: "tools[].description", see: `${RESPONSES}#responses-create-tools` },
  "tools.schema": { field: "tools[].parameters", see: `${RESPONSES}#responses-create-tools` },
  "tools.strict": { field: "tools[].strict", see: `${RESPONSES}#responses-create-tools` },
  "tool-choice": { field: "tool_choice", see: `${RESPONSES}#responses-create-tool_choice` },
  "parallel-tool-calls": {
    field: "parallel_tool_calls",
    see: `${RESPONSES}#responses-create-parallel_tool_calls`,
  },
  "sampling.temperature": {
    field: "temperature",
    see: `${RESPONSES}#responses-create-temperature`,
  },
  "sampling.top-p": { field: "top_p", see: `${RESPONSES}#responses-create-top_p` },
  "sampling.max-tokens": {
    field: "max_output_tokens",
    see: `${RESPONSES}#responses-create-max_output_tokens`,
  },
  "response-format": { field: "text.format", see: `${RESPONSES}#responses-create-text` },
  "reasoning.effort": { field: "reasoning.effort", see: `${RESPONSES}#responses-create-reasoning` },
  "reasoning.summary": {
    field: "reasoning.summary",
    see: `${RESPONSES}#responses-create-reasoning`,
  },
  metadata: { field: "metadata", see: `${RESPONSES}#responses-create-metadata` },
  user: {
    field: "user",
    aliases: ["safety_identifier"],
    see: `${RESPONSES}#responses-create-user`,
  },
  stream: { field: "stream", see: `${RESPONSES}#responses-create-stream` },
  "service-tier": { field: "service_tier", see: `${RESPONSES}#responses-create-service_tier` },
} as const satisfies SpellingTable;

/** Per client dialect: canonical request attribute → its spelling. */
export const REQUEST_FIELD_NAMES: Record<ClientDialect, SpellingTable> = {
  "anthropic-messages": anthropicMessages,
  "openai-chat": openaiChat,
  "openai-responses": openaiResponses,
};
