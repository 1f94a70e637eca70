/**
 * The scripted loop as data: the task, the tools, what the backend answers at turn 1 (tool
 * calls with stressful ids, reasoning and signatures in the backend dialect's own slots) and
 * at turn 3 (the final text), and the variants real agents produce at turn 2. The runner
 * (run-loop.ts) and the judge (judge-loop.ts) read only this; a new variant is one row.
 */

import type { Part } from "../dialects/canonical.ts";
import type { StagedReply } from "../dialects/canonical-reply-schema.ts";
import type { ClientDialect, Dialect } from "../dialects/dialect.ts";

export type LoopVariantId = "plain" | "system-note" | "parallel" | "error-result" | "thinking";

export interface LoopVariant {
  id: LoopVariantId;
  /** What a real agent does here, in one line for the docs and the report. */
  description: string;
  /** Tool calls the backend makes at turn 1 (and results the agent sends back). */
  calls: 1 | 2;
  /** The agent puts a system note between the tool call and its result. */
  systemNote: boolean;
  /** The tool failed: the result says so (and carries the dialect's error flag where it has one). */
  errorResult: boolean;
  /**
   * The agent asks for reasoning in its dialect's own field (REASONING_REQUEST), so a backend
   * whose provider demands signed reasoning back while it is on (Anthropic) holds the gateway
   * to it at turn 2.
   */
  reasoning?: boolean;
  /** Where real agents do this. */
  see: string;
}

export const LOOP_VARIANTS: readonly LoopVariant[] = [
  {
    id: "plain",
    description: "one tool call, its result echoed with the assistant message as received",
    calls: 1,
    systemNote: false,
    errorResult: false,
    see: "https://platform.openai.com/docs/guides/function-calling",
  },
  {
    id: "system-note",
    description:
      "a system note between the tool call and its result (a harness reminder, as agent frameworks insert)",
    calls: 1,
    systemNote: true,
    errorResult: false,
    see: "https://github.com/gptme/gptme/issues/3421",
  },
  {
    id: "parallel",
    description: "two parallel tool calls, both results sent back in order",
    calls: 2,
    systemNote: false,
    errorResult: false,
    see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#parallel-tool-use",
  },
  {
    id: "error-result",
    description: "the tool failed: the result is an error message (Messages' is_error: true)",
    calls: 1,
    systemNote: false,
    errorResult: true,
    see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks",
  },
  {
    id: "thinking",
    description:
      "the agent asks for reasoning (Chat reasoning_effort, Responses reasoning.effort, Messages thinking) and echoes what it got",
    calls: 1,
    systemNote: false,
    errorResult: false,
    reasoning: true,
    see: "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#extended-thinking-with-tool-use",
  },
];

/**
 * How each agent asks for reasoning in the `thinking` variant, in its dialect's own field, at
 * the lowest level the dialect defines (Anthropic's least budget is 1,024 tokens, and
 * `max_tokens` must exceed it).
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-reasoning
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#how-to-use-extended-thinking
 */
export const REASONING_REQUEST = {
  "openai-chat": { reasoning_effort: "low" },
  "openai-responses": { reasoning: { effort: "low" } },
  "anthropic-messages": {
    thinking: { type: "enabled", budget_tokens: 1024 },
    max_tokens: 2048,
  },
} as const satisfies Record<ClientDialect, Record<string, unknown>>;

/**
 * The name the two-client pair (second-client.ts) is stored under, beside the variants' ids:
 * client A's plain loop then client B's, B's judged for a key that is not its own.
 */
export const SECOND_CLIENT_VARIANT = "second-client";

export const LOOP_TOOL = {
  name: "lookup_weather",
  description: "Look up the current weather for a city.",
  schema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
  },
} as const;

export const LOOP_CITIES = ["Paris", "Tokyo"] as const;

/** The user's task; the nonce makes the loop's requests findable at the mock. */
export function loopTask(nonce: string): string {
  return `${nonce} What is the weather in Paris? Use the tool.`;
}

export const SYSTEM_NOTE = "Reminder: answer in one sentence.";
export const FINAL_TEXT = "It is sunny in Paris, 21 degrees.";

/** The result text the agent sends for call `index`. */
export function toolResultText(variant: LoopVariant, index: number): string {
  const city = LOOP_CITIES[index] ?? "Paris";
  return variant.errorResult
    ? `Error: the weather service timed out for ${city}`
    : `${city}: sunny, 21 degrees`;
}

/**
 * Tool-call ids that stress a gateway, in the shape each backend issues (so a strict provider
 * would accept its own ids back) but long and with its punctuation. OpenAI's ids are opaque
 * strings; Anthropic's match `^[a-zA-Z0-9_-]+$`; Gemini's and Ollama's are optional.
 * @see https://docs.anthropic.com/en/api/messages#body-messages-content-tool-use-id
 */
const ID_STYLE: Readonly<Record<Dialect, (index: number) => string>> = {
  "openai-chat": (i) => `call_gc.loop:${i}|${"Zx9-".repeat(12)}=`,
  "openai-responses": (i) => `call_gc.loop:${i}|${"Zx9-".repeat(12)}=`,
  "anthropic-messages": (i) => `toolu_01gc_loop-${i}_${"Ab9_".repeat(14)}-`,
  gemini: (i) => `gc-loop.${i}:${"q7".repeat(16)}`,
  ollama: (i) => `call_gc.loop:${i}/${"z".repeat(40)}`,
};

export function toolCallId(backend: Dialect, index: number): string {
  return ID_STYLE[backend](index);
}

export const REASONING_TEXT = "The user wants the weather; I will call the tool.";
/**
 * Opaque signatures as providers send them: valid base64 (the `+` and `/` of its alphabet, the
 * `=` padding only at the end), since a client library may decode them (google-genai types a
 * `thoughtSignature` as base64 bytes and refuses anything else: any-llm answered the loops'
 * Gemini replies 500 while these had `==` in the middle).
 */
export const THINKING_SIGNATURE = `EqQBCkgIARABGAIiQL+/gc+loop//sig${"A".repeat(38)}==`;
export const THOUGHT_SIGNATURE = `CiQBjz1rX+gc/loop+thought${"B".repeat(40)}A==`;

/**
 * What the backend says before its calls, in its own slot: `reasoning_content` (Chat, as
 * DeepSeek and Moonshot send it), `thinking` Ollama, a signed thinking block (Messages), a
 * reasoning item with `encrypted_content` (Responses), a thought part (Gemini).
 */
function reasoningParts(backend: Dialect): Part[] {
  if (backend === "openai-chat" || backend === "ollama") {
    return [{ type: "reasoning", text: REASONING_TEXT }];
  }
  return [{ type: "thinking", text: REASONING_TEXT, signature: THINKING_SIGNATURE }];
}

/** The backend's turn-1 reply: reasoning, then the variant's tool calls. */
export function turnOneReply(variant: LoopVariant, backend: Dialect): StagedReply {
  const calls: Part[] = LOOP_CITIES.slice(0, variant.calls).map((city, index) => ({
    type: "tool-call",
    id: toolCallId(backend, index),
    name: LOOP_TOOL.name,
    arguments: JSON.stringify({ city }),
    // Gemini carries a thoughtSignature on the call itself.
    ...(backend === "gemini" ? { signature: THOUGHT_SIGNATURE } : {}),
  }));
  return { parts: [...reasoningParts(backend), ...calls], stopReason: "tool_calls", extras: {} };
}

export function finalReply(): StagedReply {
  return { parts: [{ type: "text", text: FINAL_TEXT }], stopReason: "stop", extras: {} };
}

/** Client dialects an agent can be built in (the official SDKs). */
export const LOOP_CLIENTS: readonly ClientDialect[] = [
  "openai-chat",
  "openai-responses",
  "anthropic-messages",
];
