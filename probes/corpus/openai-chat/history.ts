/**
 * OpenAI Chat history as agents replay it: reasoning_content (DeepSeek/Moonshot), Gemini
 * thought signatures, `content: ""` tool turns, unusual tool-call ids, a system note between
 * a call and its result.
 * @see https://api-docs.deepseek.com/guides/thinking_mode#tool-calls
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
import type { Probe } from "../probe.ts";
import { ASK, BOTH_MODES, TOOLS } from "../shared.ts";

const tools = TOOLS["openai-chat"];
const ID_64 = `call_${"Zq9-x_Y8w7".repeat(5)}Vu6t5s4r3`; // 64 characters
const GEMINI_SIGNATURE = "CiQB0e2Kb3GCPROBEthoughtSignatureAAAABBBBCCCC0123456789==";

interface Turn {
  id?: string;
  assistant?: Record<string, unknown>;
  call?: Record<string, unknown>;
  between?: Record<string, unknown>[];
}

/** user → assistant tool call (with extras) → [between] → tool result. */
function toolTurn({ id = "call_PROBE01", assistant = {}, call = {}, between = [] }: Turn) {
  return {
    tools,
    messages: [
      { role: "user", content: ASK },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id,
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            ...call,
          },
        ],
        ...assistant,
      },
      ...between,
      { role: "tool", tool_call_id: id, content: "18C sunny" },
    ],
  };
}

export const chatHistoryProbes: Probe[] = [
  {
    id: "oc-reasoning-content",
    client: "openai-chat",
    axis: "content",
    field: "messages[].reasoning_content",
    request: toolTurn({ assistant: { reasoning_content: "REASONPROBE-5521 need weather" } }),
    modes: BOTH_MODES,
    severity: "high",
    knownIssues: [
      {
        gateway: "bifrost",
        versions: ["1.6.7"],
        expect: "dropped",
        url: "https://github.com/maximhq/bifrost/issues/5887",
        reproduced: false,
        backends: ["openai-chat"],
        note: "DeepSeek thinking lost on multi-turn requests via the OpenAI-compatible ingress",
      },
    ],
    note: "reasoning_content on the tool-call turn arrives (DeepSeek requires it in thinking mode)",
  },
  {
    id: "oc-gemini-thought-signature",
    client: "openai-chat",
    axis: "content",
    field: "messages[].tool_calls[].extra_content.google.thought_signature",
    request: toolTurn({
      call: { extra_content: { google: { thought_signature: GEMINI_SIGNATURE } } },
    }),
    modes: BOTH_MODES,
    severity: "high",
    backends: ["gemini", "openai-chat"],
    note: "the signature arrives as the call's thoughtSignature byte-equal (Gemini 3 rejects without)",
  },
  {
    id: "oc-assistant-empty-content",
    client: "openai-chat",
    axis: "content",
    field: "messages[].content",
    request: toolTurn({ assistant: { content: "" } }),
    modes: BOTH_MODES,
    severity: "medium",
    // Chat and Responses carry "" as is; an empty block is an invention where blocks are typed.
    backends: ["anthropic-messages", "gemini"],
    note: 'content: "" on the tool-call turn arrives as no text, not as an invented empty block',
  },
  {
    id: "oc-tool-call-id-functions",
    client: "openai-chat",
    axis: "content",
    field: "messages[].tool_calls[].id",
    request: toolTurn({ id: "functions.list_skills:0" }),
    modes: BOTH_MODES,
    severity: "high",
    note: "Kimi-style id arrives unchanged on call and result (or rewritten with a working inverse)",
  },
  {
    id: "oc-tool-call-id-64",
    client: "openai-chat",
    axis: "content",
    field: "messages[].tool_calls[].id",
    request: toolTurn({ id: ID_64 }),
    modes: BOTH_MODES,
    severity: "high",
    note: "a 64-character id arrives unchanged, not truncated",
  },
  {
    id: "oc-tool-call-id-punctuation",
    client: "openai-chat",
    axis: "content",
    field: "messages[].tool_calls[].id",
    request: toolTurn({ id: "call|weather#1.v2+tail" }),
    modes: BOTH_MODES,
    severity: "medium",
    note: "an id with | # . + arrives unchanged on call and result",
  },
  {
    id: "oc-tool-result-call-id",
    client: "openai-chat",
    axis: "content",
    field: "messages[].tool_call_id",
    request: toolTurn({ id: "call_RESULTID" }),
    modes: BOTH_MODES,
    severity: "critical",
    note: "the tool message still names the id of its call",
  },
  {
    id: "oc-system-note-between",
    client: "openai-chat",
    axis: "content",
    field: "messages",
    request: toolTurn({
      between: [{ role: "system", content: "NOTEPROBE the user switched to Celsius" }],
    }),
    modes: BOTH_MODES,
    severity: "high",
    note: "the note keeps its place or moves after the result, text kept; the call/result pair stays adjacent",
  },
  {
    id: "oc-parallel-tool-call-history",
    client: "openai-chat",
    axis: "content",
    field: "messages[].tool_calls",
    request: {
      tools,
      messages: [
        { role: "user", content: ASK },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            {
              id: "call_A",
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            },
            {
              id: "call_B",
              type: "function",
              function: { name: "get_time", arguments: '{"zone":"CET"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_A", content: "18C" },
        { role: "tool", tool_call_id: "call_B", content: "12:00" },
      ],
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "two calls arrive in one assistant turn, each result right after, ids kept",
  },
  {
    id: "oc-assistant-refusal-history",
    client: "openai-chat",
    axis: "content",
    field: "messages[].refusal",
    request: {
      messages: [
        { role: "user", content: "Tell me a secret." },
        { role: "assistant", content: null, refusal: "REFUSEPROBE I can't share that." },
        { role: "user", content: ASK },
      ],
    },
    modes: BOTH_MODES,
    severity: "low",
    note: "the earlier refusal arrives as assistant refusal (or its text), not dropped",
  },
];
