/**
 * Moonshot (Kimi) Chat Completions: an assistant tool-call message must carry a `content` key,
 * thinking mode fixes temperature at 1.0 and wants `reasoning_content` on tool-call history.
 * Errors are OpenAI-shaped without `param`/`code`, status 400.
 */
import { asNumber, asString, type JsonRecord } from "../../dialects/json.ts";
import { chatMessages, hasToolCalls, thinkingType } from "./chat-messages.ts";
import { definePersona, type PersonaRule, type Violation } from "./persona.ts";

export const MOONSHOT_MESSAGES = {
  /** @see https://github.com/AstrBotDevs/AstrBot/issues/7200 (full body, status 400) */
  emptyAssistant: (index: number) =>
    `Invalid request: the message at position ${index} with role 'assistant' must not be empty`,
  /** @see https://github.com/Narcooo/inkos/pull/174 (full body, status 400) */
  temperature: "invalid temperature: only 1 is allowed for this model",
  /** @see https://github.com/sipeed/picoclaw/issues/588 (full body, status 400) */
  missingReasoning: (index: number) =>
    `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${index}`,
} as const;

/** Models that think unless told `thinking: {type: "disabled"}`, and the always-thinking ones. */
const THINKING_BY_DEFAULT = /^(?:kimi-k2\.[5-9]|kimi-k3)/;
const ALWAYS_THINKING = /thinking/;
/** k2.5/k2.6 treat an empty reasoning_content as missing (verified against the live API). */
const NON_EMPTY_REASONING = /^kimi-k2\.[5-9]/;

/**
 * @see https://platform.kimi.ai/docs/api/models-overview (thinking parameter, fixed temperature)
 */
export function moonshotThinking(body: JsonRecord): boolean {
  const model = asString(body.model) ?? "";
  if (ALWAYS_THINKING.test(model)) return true;
  const type = thinkingType(body);
  if (type === "enabled") return true;
  if (type === "disabled") return false;
  return THINKING_BY_DEFAULT.test(model);
}

const rules: PersonaRule[] = [
  {
    id: "moonshot/tool-call-content-present",
    description:
      "An assistant message with tool_calls must carry a content key; an empty string is accepted, an absent key is not.",
    citations: [
      "https://brain.arjtech.in/knowledge/operational/moonshot-kimi-k2-5-api-openai-compatible-rejects",
      "https://github.com/AstrBotDevs/AstrBot/issues/7200",
      "https://github.com/BerriAI/litellm/issues/42186",
    ],
    dialects: ["openai-chat"],
    check(body): Violation | undefined {
      for (const { index, role, message } of chatMessages(body)) {
        if (role === "assistant" && hasToolCalls(message) && !("content" in message)) {
          return { message: MOONSHOT_MESSAGES.emptyAssistant(index), field: `messages.${index}` };
        }
      }
      return undefined;
    },
  },
  {
    id: "moonshot/thinking-temperature",
    description: "In thinking mode temperature is fixed at 1.0; any other value sent is rejected.",
    citations: [
      "https://platform.kimi.ai/docs/api/models-overview",
      "https://github.com/Narcooo/inkos/pull/174",
      "https://github.com/Warma10032/VideoAdGuard/issues/34",
    ],
    dialects: ["openai-chat"],
    check(body): Violation | undefined {
      const temperature = asNumber(body.temperature);
      if (temperature === undefined || temperature === 1 || !moonshotThinking(body)) {
        return undefined;
      }
      return { message: MOONSHOT_MESSAGES.temperature, field: "temperature" };
    },
  },
  {
    id: "moonshot/reasoning-content-on-tool-calls",
    description:
      "In thinking mode every assistant tool-call message must carry reasoning_content (non-empty on kimi-k2.5 and later).",
    citations: [
      "https://platform.kimi.ai/docs/guide/use-kimi-k2-thinking-model",
      "https://github.com/sipeed/picoclaw/issues/588",
      "https://github.com/theopenco/llmgateway/pull/2093",
    ],
    dialects: ["openai-chat"],
    check(body): Violation | undefined {
      if (!moonshotThinking(body)) return undefined;
      const needsText = NON_EMPTY_REASONING.test(asString(body.model) ?? "");
      for (const { index, role, message } of chatMessages(body)) {
        if (role !== "assistant" || !hasToolCalls(message)) continue;
        const reasoning = message.reasoning_content;
        if (typeof reasoning !== "string" || (needsText && reasoning === "")) {
          return { message: MOONSHOT_MESSAGES.missingReasoning(index) };
        }
      }
      return undefined;
    },
  },
];

export const moonshot = definePersona({
  name: "moonshot",
  description:
    "Moonshot/Kimi Chat Completions: content key required on tool-call messages; thinking mode fixes temperature at 1 and needs reasoning_content.",
  rules,
  reject: (violation) => ({
    status: violation.status ?? 400,
    body: { error: { message: violation.message, type: "invalid_request_error" } },
  }),
});
