/**
 * DeepSeek's OpenAI-compatible Chat Completions API: strict about tool-message ordering, and in
 * thinking mode about `reasoning_content` riding on every assistant tool-call message.
 * Errors are OpenAI-shaped with `code` repeating the type and `param: null`, status 400.
 * Its Anthropic-compatible Messages API (served at `/anthropic`, mounts.ts) has the thinking
 * rule in Messages form (the thinking block on tool_use turns); the ordering rules are Chat's
 * (a Messages tool result rides in the next user message, which Anthropic's own checks cover,
 * and DeepSeek publishes no error of its own for it), so they are not applied there.
 */
import type { Dialect } from "../../dialects/dialect.ts";
import { asString, isRecord, type JsonRecord } from "../../dialects/json.ts";
import { chatMessages, hasToolCalls, thinkingType, toolCallIds } from "./chat-messages.ts";
import { definePersona, type PersonaRequest, type PersonaRule, type Violation } from "./persona.ts";

export const DEEPSEEK_MESSAGES = {
  /** @see https://github.com/TurixAI/TuriX-CUA/issues/15 (full body, status 400) */
  insufficientToolMessages:
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)",
  /** @see https://github.com/FoundationAgents/OpenManus/issues/23 */
  toolWithoutCall:
    "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
  /** @see https://github.com/hotovo/aider-desk/issues/529 (full body, status 400) */
  missingReasoning: (index: number) =>
    `Missing \`reasoning_content\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
  /** @see https://github.com/sdcb/chats/issues/136 (full body, Anthropic API, thinking on) */
  missingThinking: "The `content[].thinking` in the thinking mode must be passed back to the API.",
} as const;

/**
 * Thinking mode: `deepseek-reasoner` thinks by default; any model thinks with
 * `thinking: {type: "enabled"}` and stops with `"disabled"`.
 * @see https://api-docs.deepseek.com/guides/thinking_mode
 */
export function deepseekThinking(body: JsonRecord): boolean {
  const type = thinkingType(body);
  if (type === "enabled") return true;
  if (type === "disabled") return false;
  return asString(body.model) === "deepseek-reasoner";
}

/**
 * Walk the messages: after an assistant message with tool_calls, only `tool` messages may
 * follow until each id is answered; a `tool` message must answer a pending id.
 */
function toolOrdering(body: JsonRecord): { kind: "insufficient" | "orphan" } | undefined {
  let pending = new Set<string>();
  for (const { role, message } of chatMessages(body)) {
    if (role === "tool") {
      const id = asString(message.tool_call_id);
      if (id === undefined || !pending.delete(id)) return { kind: "orphan" };
      continue;
    }
    if (pending.size > 0) return { kind: "insufficient" };
    if (role === "assistant" && hasToolCalls(message)) pending = new Set(toolCallIds(message));
  }
  return pending.size > 0 ? { kind: "insufficient" } : undefined;
}

const rules: PersonaRule[] = [
  {
    id: "deepseek/tool-calls-answered",
    description:
      "After an assistant message with tool_calls, only tool messages may follow until every tool_call_id is answered.",
    citations: [
      "https://api-docs.deepseek.com/guides/function_calling",
      "https://github.com/TurixAI/TuriX-CUA/issues/15",
      "https://github.com/gptme/gptme/issues/3421",
    ],
    dialects: ["openai-chat"],
    check(body): Violation | undefined {
      return toolOrdering(body)?.kind === "insufficient"
        ? { message: DEEPSEEK_MESSAGES.insufficientToolMessages }
        : undefined;
    },
  },
  {
    id: "deepseek/tool-message-has-call",
    description:
      "A tool message must answer a tool_call_id of the assistant tool_calls message right before it.",
    citations: [
      "https://github.com/FoundationAgents/OpenManus/issues/23",
      "https://github.com/itmisx/deepx-code/issues/94",
    ],
    dialects: ["openai-chat"],
    check(body): Violation | undefined {
      return toolOrdering(body)?.kind === "orphan"
        ? { message: DEEPSEEK_MESSAGES.toolWithoutCall }
        : undefined;
    },
  },
  {
    id: "deepseek/reasoning-content-on-tool-calls",
    description:
      "In thinking mode every assistant message with tool_calls must carry reasoning_content (an empty string is accepted).",
    citations: [
      "https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
      "https://github.com/hotovo/aider-desk/issues/529",
      "https://github.com/continuedev/continue/issues/10193",
    ],
    dialects: ["openai-chat"],
    check(body): Violation | undefined {
      if (!deepseekThinking(body)) return undefined;
      for (const { index, role, message } of chatMessages(body)) {
        if (role !== "assistant" || !hasToolCalls(message)) continue;
        if (typeof message.reasoning_content !== "string") {
          return { message: DEEPSEEK_MESSAGES.missingReasoning(index) };
        }
      }
      return undefined;
    },
  },
  {
    id: "deepseek/thinking-on-tool-use",
    description:
      "On its Anthropic API (/anthropic), in thinking mode every assistant message with a tool_use block must carry its thinking block: the Messages form of reasoning_content on tool-call history.",
    citations: [
      "https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
      "https://github.com/sdcb/chats/issues/136",
      "https://api-docs.deepseek.com/guides/anthropic_api",
    ],
    dialects: ["anthropic-messages"],
    check(body): Violation | undefined {
      if (!deepseekThinking(body)) return undefined;
      const messages = Array.isArray(body.messages) ? body.messages : [];
      for (const message of messages) {
        if (!isRecord(message) || message.role !== "assistant") continue;
        const blocks = Array.isArray(message.content) ? message.content.filter(isRecord) : [];
        const calls = blocks.some((b) => b.type === "tool_use");
        // A redacted_thinking block is taken as one: DeepSeek lists it as not supported and
        // publishes no error for it, so the persona claims none.
        const thought = blocks.some((b) => b.type === "thinking" || b.type === "redacted_thinking");
        if (calls && !thought) {
          return { message: DEEPSEEK_MESSAGES.missingThinking };
        }
      }
      return undefined;
    },
  },
];

const INVALID = "invalid_request_error";

/**
 * DeepSeek's error bodies, per API it serves: OpenAI-shaped on its Chat API; on its Anthropic
 * API the same `error.message` and `type` without `param` or `code`, as sdcb/chats#136 shows one.
 */
const DEEPSEEK_ERROR_BODY: Partial<Record<Dialect, (message: string) => unknown>> = {
  "openai-chat": (message) => ({ error: { message, type: INVALID, param: null, code: INVALID } }),
  "anthropic-messages": (message) => ({ error: { message, type: INVALID } }),
};

function deepseekError(violation: Violation, req: PersonaRequest): unknown {
  const body = DEEPSEEK_ERROR_BODY[req.dialect] ?? DEEPSEEK_ERROR_BODY["openai-chat"];
  return body?.(violation.message);
}

export const deepseek = definePersona({
  name: "deepseek",
  description:
    "DeepSeek Chat Completions: tool messages must answer the preceding tool_calls in order; thinking mode needs reasoning_content on tool-call history (on its Anthropic API, the thinking block on tool_use turns).",
  rules,
  reject: (violation, req) => ({
    status: violation.status ?? 400,
    body: deepseekError(violation, req),
  }),
});
