/**
 * Anthropic Messages: `max_tokens` is required, and tool_use / tool_result blocks must pair up
 * across adjacent messages. Errors are `{type: "error", error: {type, message}, request_id}`,
 * status 400, with messages that point into the body (`messages.3.content.0: ...`).
 */
import { randomBytes } from "node:crypto";
import { asArray, asRecord, asString, type JsonRecord } from "../../dialects/json.ts";
import { definePersona, type PersonaRule, type Violation } from "./persona.ts";

export const ANTHROPIC_MESSAGES = {
  /** @see https://github.com/tickernelz/opencode-mem/issues/50 (full body, status 400) */
  maxTokens: "max_tokens: Field required",
  /** @see https://github.com/anthropics/claude-code/issues/13460 (full body, status 400) */
  unexpectedToolResult: (index: number, block: number, id: string) =>
    `messages.${index}.content.${block}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
  /** @see https://github.com/anthropics/claude-code/issues/7929 (full body, status 400) */
  unansweredToolUse: (index: number, ids: readonly string[]) =>
    `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  /** @see https://github.com/danny-avila/LibreChat/issues/8346 (Bedrock, same validator) */
  thinkingBudgetMin:
    "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
} as const;

/** The smallest thinking budget Anthropic takes. */
const MIN_THINKING_BUDGET = 1024;

interface Block {
  index: number;
  type: string | undefined;
  block: JsonRecord;
}

function blocksOf(message: unknown): Block[] {
  const content = asArray(asRecord(message)?.content) ?? [];
  return content.flatMap((entry, index) => {
    const block = asRecord(entry);
    return block ? [{ index, type: asString(block.type), block }] : [];
  });
}

function toolUseIds(message: unknown): string[] {
  return blocksOf(message).flatMap(({ type, block }) => {
    const id = asString(block.id);
    return type === "tool_use" && id !== undefined ? [id] : [];
  });
}

const rules: PersonaRule[] = [
  {
    id: "anthropic/max-tokens-required",
    description: "max_tokens is a required field of every Messages request.",
    citations: [
      "https://docs.anthropic.com/en/api/messages",
      "https://github.com/tickernelz/opencode-mem/issues/50",
    ],
    dialects: ["anthropic-messages"],
    check(body): Violation | undefined {
      return "max_tokens" in body ? undefined : { message: ANTHROPIC_MESSAGES.maxTokens };
    },
  },
  {
    id: "anthropic/tool-result-answers-tool-use",
    description: "Each tool_result block must answer a tool_use id of the message right before it.",
    citations: [
      "https://docs.anthropic.com/en/docs/build-with-claude/tool-use/implement-tool-use#handling-results-from-client-tools",
      "https://github.com/anthropics/claude-code/issues/13460",
    ],
    dialects: ["anthropic-messages"],
    check(body): Violation | undefined {
      const messages = asArray(body.messages) ?? [];
      for (const [index, message] of messages.entries()) {
        const previous = new Set(index > 0 ? toolUseIds(messages[index - 1]) : []);
        for (const { index: block, type, block: value } of blocksOf(message)) {
          if (type !== "tool_result") continue;
          const id = asString(value.tool_use_id) ?? "";
          if (!previous.has(id)) {
            return { message: ANTHROPIC_MESSAGES.unexpectedToolResult(index, block, id) };
          }
        }
      }
      return undefined;
    },
  },
  {
    id: "anthropic/tool-use-answered",
    description:
      "Each tool_use block must be answered by a tool_result in the next message, when a next message exists.",
    citations: [
      "https://docs.anthropic.com/en/docs/build-with-claude/tool-use/implement-tool-use#handling-results-from-client-tools",
      "https://github.com/anthropics/claude-code/issues/7929",
    ],
    dialects: ["anthropic-messages"],
    check(body): Violation | undefined {
      const messages = asArray(body.messages) ?? [];
      for (const [index, message] of messages.entries()) {
        const ids = toolUseIds(message);
        if (ids.length === 0 || index + 1 >= messages.length) continue;
        const answered = new Set(
          blocksOf(messages[index + 1])
            .filter(({ type }) => type === "tool_result")
            .map(({ block }) => asString(block.tool_use_id)),
        );
        const missing = ids.filter((id) => !answered.has(id));
        if (missing.length > 0) {
          return { message: ANTHROPIC_MESSAGES.unansweredToolUse(index, missing) };
        }
      }
      return undefined;
    },
  },
  {
    id: "anthropic/thinking-budget-min",
    description:
      "thinking {type: enabled} needs budget_tokens of at least 1024 (a gateway mapping a small effort to a budget must not go below it).",
    citations: [
      "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking",
      "https://github.com/themaximalist/llm.js/issues/30",
      "https://github.com/danny-avila/LibreChat/issues/8346",
    ],
    dialects: ["anthropic-messages"],
    check(body): Violation | undefined {
      const thinking = asRecord(body.thinking);
      const budget = thinking?.budget_tokens;
      if (asString(thinking?.type) !== "enabled" || typeof budget !== "number") return undefined;
      return budget < MIN_THINKING_BUDGET
        ? { message: ANTHROPIC_MESSAGES.thinkingBudgetMin }
        : undefined;
    },
  },
];

export const anthropic = definePersona({
  name: "anthropic",
  description:
    "Anthropic Messages: max_tokens required; tool_result blocks must answer the previous message's tool_use ids and every tool_use must be answered; a thinking budget of at least 1024.",
  rules,
  reject: (violation) => ({
    status: violation.status ?? 400,
    body: {
      type: "error",
      error: { type: "invalid_request_error", message: violation.message },
      request_id: `req_${randomBytes(12).toString("hex")}`,
    },
  }),
});
