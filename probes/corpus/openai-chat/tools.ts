/**
 * OpenAI Chat Completions tool parameters: definitions, schemas, strictness, tool_choice and
 * parallel calls, each checked by value.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES, LITELLM_41913, TOOLS, WEATHER_SCHEMA } from "../shared.ts";

const tools = TOOLS["openai-chat"];

export const chatToolProbes: Probe[] = [
  {
    id: "oc-tools",
    client: "openai-chat",
    axis: "request",
    field: "tools",
    request: { tools },
    modes: BOTH_MODES,
    severity: "critical",
    note: "both tools arrive with their names, in order",
  },
  {
    id: "oc-tools-description",
    client: "openai-chat",
    axis: "request",
    field: "tools[].function.description",
    request: { tools },
    modes: BOTH_MODES,
    severity: "medium",
    note: 'the description "WXPROBE weather lookup" arrives unchanged',
  },
  {
    id: "oc-tools-parameters",
    client: "openai-chat",
    axis: "request",
    field: "tools[].function.parameters",
    request: { tools },
    modes: BOTH_MODES,
    severity: "high",
    note: "the schema arrives equal by value (nothing added, nothing stripped)",
  },
  {
    id: "oc-tools-parameters-empty",
    client: "openai-chat",
    axis: "request",
    field: "tools[].function.parameters",
    request: {
      tools: [
        {
          type: "function",
          function: { name: "list_skills", parameters: { type: "object", properties: {} } },
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "an argument-less schema arrives without an invented `required: []`",
  },
  {
    id: "oc-tools-parameters-refs",
    client: "openai-chat",
    axis: "request",
    field: "tools[].function.parameters",
    request: {
      tools: [
        {
          type: "function",
          function: {
            name: "book_trip",
            parameters: {
              type: "object",
              properties: { from: { $ref: "#/$defs/city" }, to: { $ref: "#/$defs/city" } },
              required: ["from", "to"],
              $defs: { city: { type: "string", enum: ["Paris", "Oslo"] } },
            },
          },
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "a schema with $defs/$ref arrives equal by value (or inlined to the same meaning)",
  },
  {
    id: "oc-tools-strict",
    client: "openai-chat",
    axis: "request",
    field: "tools[].function.strict",
    request: {
      tools: [
        {
          type: "function",
          function: { name: "get_weather", parameters: WEATHER_SCHEMA, strict: true },
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "high",
    knownIssues: [
      {
        gateway: "litellm",
        versions: ["1.101.0"],
        expect: "dropped",
        url: LITELLM_41913,
        reproduced: false,
        backends: ["anthropic-messages", "gemini"],
        note: "Chat to Anthropic and to Gemini: strict absent from the forwarded tool",
      },
    ],
    note: "strict: true arrives on the tool (Anthropic tools[].strict)",
  },
  {
    id: "oc-tool-choice-required",
    client: "openai-chat",
    axis: "request",
    field: "tool_choice",
    request: { tools, tool_choice: "required" },
    modes: BOTH_MODES,
    severity: "high",
    note: "required arrives as any (Anthropic) / ANY (Gemini) / required",
  },
  {
    id: "oc-tool-choice-none",
    client: "openai-chat",
    axis: "request",
    field: "tool_choice",
    request: { tools, tool_choice: "none" },
    modes: BOTH_MODES,
    severity: "high",
    note: "none arrives as none, tools kept",
  },
  {
    id: "oc-tool-choice-function",
    client: "openai-chat",
    axis: "request",
    field: "tool_choice",
    request: { tools, tool_choice: { type: "function", function: { name: "get_time" } } },
    modes: BOTH_MODES,
    severity: "high",
    note: "a forced function arrives forcing get_time",
  },
  {
    id: "oc-parallel-tool-calls-false",
    client: "openai-chat",
    axis: "request",
    field: "parallel_tool_calls",
    request: { tools, parallel_tool_calls: false },
    modes: BOTH_MODES,
    severity: "high",
    knownIssues: [
      {
        gateway: "litellm",
        versions: ["1.101.0"],
        expect: "dropped",
        url: LITELLM_41913,
        reproduced: false,
        backends: ["gemini"],
        note: "Chat to Gemini: nothing carries the single-call restriction",
      },
    ],
    note: "false arrives as false (Anthropic disable_parallel_tool_use: true)",
  },
];
