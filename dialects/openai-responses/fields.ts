/**
 * OpenAI Responses: where each canonical request attribute sits in a request body, or why
 * Responses cannot carry it (field-table.ts).
 */
import {
  absent,
  absentInReply,
  BOOLEAN,
  carriedIn,
  type FieldTable,
  NUMBER,
  RECORD,
  STRING,
  spelled,
  type ValueMeaning,
  value,
} from "../field-table.ts";
import { DOCS } from "../references.ts";

const RESPONSES = DOCS.responses;
const INPUT = `${RESPONSES}#responses-create-input`;
const TOOLS = `${RESPONSES}#responses-create-tools`;
const REASONING = `${RESPONSES}#responses-create-reasoning`;
const NOT_ANTHROPIC_HEADER = "an Anthropic-only header";
/** The `include` entry that asks for the output text's log probabilities (canonical `logprobs`). */
export const LOGPROBS_INCLUDE = "message.output_text.logprobs";

const TIER = `${RESPONSES}#responses-create-service_tier`;

/** `service_tier` values by meaning, as Chat's (`default` is the standard tier). */
export const RESPONSES_SERVICE_TIERS = {
  auto: { meaning: "auto", see: TIER },
  default: { meaning: "standard", see: TIER },
  flex: { meaning: "flex", see: TIER },
  scale: { meaning: "scale", see: TIER },
  priority: { meaning: "priority", see: TIER },
} as const satisfies Record<string, ValueMeaning>;

export const RESPONSES_FIELDS = {
  rows: [
    value("model", "model", STRING, `${RESPONSES}#responses-create-model`),
    spelled("system", "instructions", `${RESPONSES}#responses-create-instructions`, [
      "input[role=system]",
      "input[role=developer]",
    ]),
    spelled("messages", "input", INPUT),
    spelled("messages.text", "input[].content[].text", INPUT, ["input[].content"]),
    spelled("messages.image", "input[].content[].image_url", INPUT),
    spelled("messages.document", "input[].content[].file_data", INPUT),
    spelled("messages.audio", "input[].content[].input_audio", INPUT),
    spelled("messages.tool-call", "input[].function_call", INPUT),
    spelled("messages.tool-call.id", "input[].call_id", INPUT),
    spelled("messages.tool-call.name", "input[].name", INPUT),
    spelled("messages.tool-call.arguments", "input[].arguments", INPUT),
    spelled("messages.tool-result", "input[].function_call_output", INPUT),
    // The output item links to its call by the same key the call carries.
    spelled("messages.tool-result.call-id", "input[].function_call_output.call_id", INPUT),
    spelled("messages.thinking", "input[].reasoning", INPUT),
    spelled(
      "messages.thinking.signature",
      "input[].encrypted_content",
      `${RESPONSES}#responses-create-include`,
    ),
    // Prior reasoning text is the reasoning item's summary.
    carriedIn("messages.reasoning", "messages.thinking", "input[].reasoning.summary", INPUT),
    spelled("messages.refusal", "input[].content[].refusal", INPUT),
    spelled("tools", "tools", TOOLS),
    spelled("tools.name", "tools[].name", TOOLS),
    spelled("tools.description", "tools[].description", TOOLS),
    spelled("tools.schema", "tools[].parameters", TOOLS),
    spelled("tools.strict", "tools[].strict", TOOLS),
    spelled("mcp-servers", "tools[].mcp", DOCS.openaiRemoteMcp),
    spelled("tool-choice", "tool_choice", `${RESPONSES}#responses-create-tool_choice`),
    value(
      "parallel-tool-calls",
      "parallel_tool_calls",
      BOOLEAN,
      `${RESPONSES}#responses-create-parallel_tool_calls`,
    ),
    value(
      "sampling.temperature",
      "temperature",
      NUMBER,
      `${RESPONSES}#responses-create-temperature`,
    ),
    value("sampling.top-p", "top_p", NUMBER, `${RESPONSES}#responses-create-top_p`),
    value(
      "sampling.max-tokens",
      "max_output_tokens",
      NUMBER,
      `${RESPONSES}#responses-create-max_output_tokens`,
    ),
    spelled("response-format", "text.format", `${RESPONSES}#responses-create-text`),
    // Read and written beside the format by the dialect's own code.
    spelled("verbosity", "text.verbosity", `${RESPONSES}#responses-create-text`),
    // Read by the reader's own code: a `reasoning` object with neither is kept as sent.
    spelled("reasoning.effort", "reasoning.effort", REASONING),
    spelled("reasoning.summary", "reasoning.summary", REASONING),
    // On and off travel as effort levels: `none` is off, `medium` the model's own choice.
    carriedIn("reasoning.mode", "reasoning.effort", "reasoning.effort", REASONING),
    value("metadata", "metadata", RECORD, `${RESPONSES}#responses-create-metadata`),
    value("user", "user", STRING, `${RESPONSES}#responses-create-user`, {
      aliases: ["safety_identifier"],
    }),
    value("stream", "stream", BOOLEAN, `${RESPONSES}#responses-create-stream`),
    // The same values as Chat's, with the same meanings (both OpenAI pages list them).
    value("service-tier", "service_tier", STRING, `${RESPONSES}#responses-create-service_tier`, {
      values: RESPONSES_SERVICE_TIERS,
    }),
    value("store", "store", BOOLEAN, `${RESPONSES}#responses-create-store`),
    // Asked for as one entry of `include`; read and written by the dialect's own code.
    spelled("logprobs", `include[${LOGPROBS_INCLUDE}]`, `${RESPONSES}#responses-create-include`),
    value("top-logprobs", "top_logprobs", NUMBER, `${RESPONSES}#responses-create-top_logprobs`),
  ],
  absent: [
    ...absent(["sampling.top-k"], "Responses has no top_k", RESPONSES),
    ...absent(
      ["stream-options.include-usage"],
      "response.completed always carries usage: there is nothing to ask for",
      DOCS.responsesObject,
    ),
    ...absent(
      ["reasoning.budget-tokens"],
      "reasoning.effort is a level, not a token budget",
      REASONING,
    ),
    ...absent(["sampling.stop"], "Responses has no stop", RESPONSES),
    ...absent(["sampling.seed"], "Responses has no seed", RESPONSES),
    ...absent(["sampling.presence-penalty"], "Responses has no presence_penalty", RESPONSES),
    ...absent(["sampling.frequency-penalty"], "Responses has no frequency_penalty", RESPONSES),
    ...absent(["sampling.n"], "one reply per request", RESPONSES),
    ...absent(["sampling.logit-bias"], "Responses has no logit_bias", RESPONSES),
    ...absent(["messages.tool-result.is-error"], "function_call_output has no error flag", INPUT),
    ...absent(["messages.tool-call.signature"], "a function_call item has no signature", INPUT),
    ...absent(
      ["messages.cache", "tools.cache", "cache"],
      "no cache_control markers",
      DOCS.anthropicCaching,
    ),
    ...absent(
      ["prediction"],
      "predicted outputs are a Chat Completions parameter; Responses has none",
      DOCS.openaiPredictedOutputs,
    ),
    // Decision: Responses' `context_management` takes compaction entries (a summary of the
    // earlier turns past a token threshold) and `truncation` drops whole items from the start;
    // neither clears old tool results or thinking blocks as Anthropic's edits do.
    ...absent(
      ["context-management"],
      "context_management here is compaction and truncation drops whole items: no clearing of tool results or thinking",
      `${RESPONSES}#responses-create-context_management`,
    ),
    // Documented parameters of other dialects that no attribute models (docs/lens.md, "A
    // client key no reader maps").
    ...absent(
      ["extras.container"],
      "an Anthropic code-execution container id; Responses gives a container per code_interpreter tool",
      TOOLS,
    ),
    ...absent(["headers.anthropic-beta"], NOT_ANTHROPIC_HEADER, DOCS.anthropicBeta),
    ...absent(["headers.anthropic-version"], NOT_ANTHROPIC_HEADER, DOCS.anthropicVersioning),
    ...absentInReply(
      ["stop_sequence"],
      "the response does not name the sequence",
      DOCS.responsesObject,
    ),
    ...absentInReply(
      ["usage.cache_write_tokens"],
      "usage reports cached reads only",
      DOCS.responsesObject,
    ),
  ],
} as const satisfies FieldTable;
