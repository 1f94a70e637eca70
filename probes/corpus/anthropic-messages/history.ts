/**
 * Anthropic Messages history: replayed thinking with signatures, tool-call ids of unusual
 * valid shapes, message order.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
 */
import type { Probe } from "../probe.ts";
import { ASK, BOTH_MODES, TOOLS } from "../shared.ts";

const tools = TOOLS["anthropic-messages"];
const SIGNATURE = "EqQBCkYIBxgCKkDSIGPROBEsignatureAAAABBBBCCCCDDDDEEEEFFFF0123456789abcdef==";
const ID_64 = `toolu_${"a1B2-c3D4_".repeat(5)}e5F6g7H8`; // 64 characters, all of [A-Za-z0-9_-]

/** History with a thinking block (and signature) before a tool call, then its result. */
function thinkingTurn(thinking: Record<string, unknown>) {
  return {
    tools,
    max_tokens: 4096,
    thinking: { type: "enabled", budget_tokens: 2048 },
    messages: [
      { role: "user", content: ASK },
      {
        role: "assistant",
        content: [
          thinking,
          { type: "tool_use", id: "toolu_01THINK", name: "get_weather", input: { city: "Paris" } },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_01THINK", content: "18C" }],
      },
    ],
  };
}

function callWithId(id: string) {
  return {
    tools,
    messages: [
      { role: "user", content: ASK },
      { role: "assistant", content: [{ type: "tool_use", id, name: "get_weather", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "18C" }] },
    ],
  };
}

export const anthropicHistoryProbes: Probe[] = [
  {
    id: "am-thinking-history",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].thinking",
    request: thinkingTurn({ type: "thinking", thinking: "THINKPROBE-9021", signature: SIGNATURE }),
    modes: BOTH_MODES,
    severity: "high",
    note: "the replayed thinking arrives as reasoning (not visible text) before the call",
  },
  {
    id: "am-thinking-signature",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].signature",
    request: thinkingTurn({ type: "thinking", thinking: "THINKPROBE-9022", signature: SIGNATURE }),
    modes: BOTH_MODES,
    severity: "high",
    note: "the signature arrives byte-equal where the backend keeps one (Anthropic, Gemini)",
  },
  {
    id: "am-redacted-thinking",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].thinking",
    request: thinkingTurn({ type: "redacted_thinking", data: "REDACTEDPROBE-opaque-data" }),
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["anthropic-messages"],
    note: "the redacted block arrives unchanged on an Anthropic backend",
  },
  {
    id: "am-tool-use-id-64",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].id",
    request: callWithId(ID_64),
    modes: BOTH_MODES,
    severity: "high",
    note: "a 64-character id arrives unchanged on the call and on its result",
  },
  {
    id: "am-tool-use-id-punctuated",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].id",
    request: callWithId("functions.list_skills:0"),
    modes: BOTH_MODES,
    severity: "high",
    note: "an id replayed from another provider (Kimi style) arrives unchanged",
  },
  {
    id: "am-tool-result-id",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].tool_use_id",
    request: callWithId("toolu_01RESULTID"),
    modes: BOTH_MODES,
    severity: "critical",
    note: "the result still names the id of its call",
  },
  {
    id: "am-parallel-tool-results",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].tool_result",
    request: {
      tools,
      messages: [
        { role: "user", content: ASK },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking both." },
            { type: "tool_use", id: "toolu_A", name: "get_weather", input: { city: "Paris" } },
            { type: "tool_use", id: "toolu_B", name: "get_time", input: { zone: "CET" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_A", content: "18C" },
            { type: "tool_result", tool_use_id: "toolu_B", content: "12:00" },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "two results arrive right after their two calls, each with its own id, in order",
  },
  {
    id: "am-multi-turn-order",
    client: "anthropic-messages",
    axis: "content",
    field: "messages",
    request: {
      messages: [
        { role: "user", content: "TURNPROBE-1 first question" },
        { role: "assistant", content: "TURNPROBE-2 first answer" },
        { role: "user", content: "TURNPROBE-3 second question" },
      ],
    },
    modes: BOTH_MODES,
    severity: "critical",
    note: "three turns arrive with the same roles, texts and order",
  },
];
