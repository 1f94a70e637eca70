/**
 * Anthropic Messages: where each canonical request attribute sits in a request body, or why
 * Messages cannot carry it (field-table.ts).
 */
import {
  absent,
  absentInReply,
  BOOLEAN,
  CACHE_MARKER,
  carriedIn,
  type FieldTable,
  NUMBER,
  RECORD,
  STRING,
  STRINGS,
  spelled,
  type ValueMeaning,
  value,
} from "../field-table.ts";
import { DOCS } from "../references.ts";

const ANTHROPIC = DOCS.anthropic;
const MESSAGES = `${ANTHROPIC}#body-messages`;
const TOOLS = `${ANTHROPIC}#body-tools`;
const TOOL_USE = DOCS.anthropicToolUse;
const THINKING = `${ANTHROPIC}#body-thinking`;

const TIERS_PAGE = "https://docs.anthropic.com/en/api/service-tiers";

/**
 * `service_tier` values by meaning. `auto` takes Priority Tier capacity when the organization
 * has it, else standard: the account decides, as OpenAI's `auto` (the project's tier).
 * `standard_only` is the standard tier. Decision: Priority Tier is a capacity commitment, not
 * asked for per request, so OpenAI's `priority`, `flex` and `scale` have no value here.
 */
export const ANTHROPIC_SERVICE_TIERS = {
  auto: { meaning: "auto", see: TIERS_PAGE },
  standard_only: { meaning: "standard", see: TIERS_PAGE },
} as const satisfies Record<string, ValueMeaning>;

export const ANTHROPIC_FIELDS = {
  rows: [
    value("model", "model", STRING, `${ANTHROPIC}#body-model`),
    spelled("system", "system", `${ANTHROPIC}#body-system`),
    spelled("messages", "messages", MESSAGES),
    spelled("messages.text", "messages[].content[].text", MESSAGES),
    spelled("messages.image", "messages[].content[].image", MESSAGES),
    spelled("messages.document", "messages[].content[].document", DOCS.anthropicPdf),
    spelled("messages.cache", "messages[].content[].cache_control", DOCS.anthropicCaching),
    spelled("messages.tool-call", "messages[].content[].tool_use", TOOL_USE),
    spelled("messages.tool-call.id", "messages[].content[].id", TOOL_USE),
    spelled("messages.tool-call.name", "messages[].content[].name", TOOL_USE),
    spelled("messages.tool-call.arguments", "messages[].content[].input", TOOL_USE),
    spelled("messages.tool-result", "messages[].content[].tool_result", TOOL_USE),
    spelled("messages.tool-result.call-id", "messages[].content[].tool_use_id", TOOL_USE),
    spelled("messages.tool-result.is-error", "messages[].content[].is_error", TOOL_USE),
    spelled("messages.thinking", "messages[].content[].thinking", DOCS.anthropicThinking),
    spelled(
      "messages.thinking.signature",
      "messages[].content[].signature",
      DOCS.anthropicThinking,
    ),
    // A prior refusal is assistant text: Messages has no refusal block.
    carriedIn("messages.refusal", "messages.text", "messages[].content[].text", MESSAGES),
    spelled("tools", "tools", TOOLS),
    spelled("tools.name", "tools[].name", TOOLS),
    spelled("tools.description", "tools[].description", TOOLS),
    spelled("tools.schema", "tools[].input_schema", TOOLS),
    spelled("tools.strict", "tools[].strict", DOCS.anthropicStructured),
    spelled("tools.cache", "tools[].cache_control", DOCS.anthropicCaching),
    spelled("tool-choice", "tool_choice", `${ANTHROPIC}#body-tool-choice`),
    spelled(
      "parallel-tool-calls",
      "tool_choice.disable_parallel_tool_use",
      `${ANTHROPIC}#body-tool-choice`,
    ),
    value("sampling.temperature", "temperature", NUMBER, `${ANTHROPIC}#body-temperature`),
    value("sampling.top-p", "top_p", NUMBER, `${ANTHROPIC}#body-top-p`),
    value("sampling.top-k", "top_k", NUMBER, `${ANTHROPIC}#body-top-k`),
    value("sampling.max-tokens", "max_tokens", NUMBER, `${ANTHROPIC}#body-max-tokens`, {
      required: true,
    }),
    value("sampling.stop", "stop_sequences", STRINGS, `${ANTHROPIC}#body-stop-sequences`),
    // GA spelling; `output_format` is the original beta spelling (structured-outputs-2025-11-13).
    spelled("response-format", "output_config.format", DOCS.anthropicStructured, ["output_format"]),
    spelled("reasoning.mode", "thinking.type", THINKING),
    spelled("reasoning.budget-tokens", "thinking.budget_tokens", THINKING),
    spelled("reasoning.effort", "output_config.effort", DOCS.anthropicEffort),
    spelled("user", "metadata.user_id", `${ANTHROPIC}#body-metadata`),
    value("stream", "stream", BOOLEAN, `${ANTHROPIC}#body-stream`),
    value("service-tier", "service_tier", STRING, `${ANTHROPIC}#body-service-tier`, {
      values: ANTHROPIC_SERVICE_TIERS,
    }),
    value("cache", "cache_control", CACHE_MARKER, DOCS.anthropicCaching),
    value("context-management", "context_management", RECORD, DOCS.anthropicContextEditing),
    spelled("mcp-servers", "mcp_servers", DOCS.anthropicMcp),
  ],
  absent: [
    ...absent(
      ["reasoning.summary"],
      "only the Responses API asks for a reasoning summary",
      `${DOCS.responses}#responses-create-reasoning`,
    ),
    ...absent(
      ["metadata"],
      "Anthropic metadata accepts only user_id",
      `${ANTHROPIC}#body-metadata`,
    ),
    ...absent(["sampling.seed"], "Messages has no seed", `${ANTHROPIC}#body`),
    ...absent(
      ["sampling.presence-penalty"],
      "Messages has no presence_penalty",
      `${ANTHROPIC}#body`,
    ),
    ...absent(
      ["sampling.frequency-penalty"],
      "Messages has no frequency_penalty",
      `${ANTHROPIC}#body`,
    ),
    ...absent(["sampling.n"], "one reply per request", ANTHROPIC),
    ...absent(["sampling.logit-bias"], "Messages has no token bias", `${ANTHROPIC}#body`),
    ...absent(
      ["stream-options.include-usage"],
      "message_delta always carries usage: there is nothing to ask for",
      `${ANTHROPIC}#body-stream`,
    ),
    // A Gemini thought signature rides on the call itself; Anthropic signs thinking blocks,
    // not tool_use blocks.
    ...absent(
      ["messages.tool-call.signature"],
      "a tool_use block has only id, name and input",
      MESSAGES,
    ),
    ...absent(
      ["messages.reasoning"],
      "prior thinking must carry an Anthropic-issued signature",
      DOCS.anthropicThinking,
    ),
    ...absent(["messages.audio"], "no audio input blocks", MESSAGES),
    ...absent(
      ["tool-choice.allowed"],
      "tool_choice is auto, any, tool or none: no allowed subset (one required tool is `tool`)",
      `${ANTHROPIC}#body-tool-choice`,
    ),
    ...absent(
      ["response-format.json-object"],
      "structured outputs take a JSON schema: there is no schema-less JSON mode",
      DOCS.anthropicStructured,
    ),
    ...absent(
      ["response-format.strict"],
      "output_config.format has only type and schema: no strict flag",
      DOCS.anthropicStructured,
    ),
    ...absent(
      ["logprobs", "top-logprobs"],
      "Messages returns no token log probabilities",
      `${ANTHROPIC}#body`,
    ),
    ...absent(["prediction"], "Messages has no predicted output", `${ANTHROPIC}#body`),
    // Documented parameters of other dialects that no attribute models (docs/lens.md, "A
    // client key no reader maps"): Messages has no field for them.
    ...absent(
      ["store", "extras.previous_response_id"],
      "Messages keeps no responses: nothing to store or continue from",
      `${ANTHROPIC}#body`,
    ),
    ...absent(
      ["extras.truncation", "extras.max_tool_calls", "extras.include"],
      "a Responses parameter: Messages has no such field",
      `${ANTHROPIC}#body`,
    ),
    ...absent(["verbosity"], "Messages has no verbosity setting", `${ANTHROPIC}#body`),
    ...absent(["headers.openai-beta"], "an OpenAI-only header", DOCS.responses),
    ...absentInReply(
      ["usage.reasoning_tokens"],
      "usage has no reasoning-token count",
      `${ANTHROPIC}#response-usage`,
    ),
  ],
} as const satisfies FieldTable;
