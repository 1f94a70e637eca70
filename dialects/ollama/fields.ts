/**
 * Ollama /api/chat: where each canonical request attribute sits in a request body, or why
 * Ollama cannot carry it (field-table.ts).
 */
import {
  absent,
  BOOLEAN,
  type FieldTable,
  NUMBER,
  STOP_LIST,
  STRING,
  spelled,
  value,
} from "../field-table.ts";
import { DOCS } from "../references.ts";

const OLLAMA = DOCS.ollama;
const OPTIONS = DOCS.ollamaOptions;
const TOOLS_DOC = "https://github.com/ollama/ollama/blob/main/docs/api.md#chat-request-with-tools";

export const OLLAMA_FIELDS = {
  rows: [
    value("model", "model", STRING, OLLAMA),
    spelled("system", "messages[role=system]", OLLAMA),
    spelled("messages", "messages", OLLAMA),
    spelled("messages.text", "messages[].content", OLLAMA),
    spelled("messages.image", "messages[].images", OLLAMA),
    spelled("messages.tool-call", "messages[].tool_calls", TOOLS_DOC),
    spelled("messages.tool-call.name", "messages[].tool_calls[].function.name", TOOLS_DOC),
    spelled(
      "messages.tool-call.arguments",
      "messages[].tool_calls[].function.arguments",
      TOOLS_DOC,
    ),
    spelled("messages.tool-result", "messages[role=tool]", TOOLS_DOC),
    // The result's link to its call: the function's name, in call order (traits.toolResultLink).
    spelled("messages.tool-result.call-id", "messages[].tool_name", DOCS.ollamaTools),
    spelled("messages.thinking", "messages[].thinking", OLLAMA),
    spelled("messages.reasoning", "messages[].thinking", OLLAMA),
    // A prior refusal is assistant text: Ollama has no refusal field.
    spelled("messages.refusal", "messages[].content", OLLAMA),
    spelled("tools", "tools", TOOLS_DOC),
    spelled("tools.name", "tools[].function.name", TOOLS_DOC),
    spelled("tools.description", "tools[].function.description", TOOLS_DOC),
    spelled("tools.schema", "tools[].function.parameters", TOOLS_DOC),
    spelled("response-format", "format", OLLAMA),
    spelled("reasoning.mode", "think", OLLAMA),
    spelled("reasoning.effort", "think", OLLAMA),
    value("sampling.temperature", "options.temperature", NUMBER, OPTIONS),
    value("sampling.top-p", "options.top_p", NUMBER, OPTIONS),
    value("sampling.top-k", "options.top_k", NUMBER, OPTIONS),
    value("sampling.max-tokens", "options.num_predict", NUMBER, OPTIONS),
    value("sampling.stop", "options.stop", STOP_LIST, OPTIONS),
    value("sampling.seed", "options.seed", NUMBER, OPTIONS),
    value("sampling.presence-penalty", "options.presence_penalty", NUMBER, OPTIONS),
    value("sampling.frequency-penalty", "options.frequency_penalty", NUMBER, OPTIONS),
    value("stream", "stream", BOOLEAN, OLLAMA),
    value("logprobs", "logprobs", BOOLEAN, DOCS.ollamaChat),
    value("top-logprobs", "top_logprobs", NUMBER, DOCS.ollamaChat),
  ],
  absent: [
    ...absent(["reasoning.budget-tokens"], "think is on/off or a level", OLLAMA),
    ...absent(
      ["reasoning.summary"],
      "only the Responses API asks for a reasoning summary",
      `${DOCS.responses}#responses-create-reasoning`,
    ),
    ...absent(["user"], "/api/chat has no end-user id", OLLAMA),
    ...absent(
      ["messages.tool-call.id"],
      "a tool call has no id: a tool message names its function in tool_name",
      DOCS.ollamaTools,
    ),
    ...absent(
      ["stream-options.include-usage"],
      "the final done:true object carries the counts: there is nothing to ask for",
      OLLAMA,
    ),
    ...absent(["metadata"], "/api/chat has no request metadata", OLLAMA),
    ...absent(["service-tier"], "/api/chat has no service tier", OLLAMA),
    ...absent(["sampling.n"], "one reply per request", OLLAMA),
    ...absent(["sampling.logit-bias"], "options has no token bias", OPTIONS),
    ...absent(["parallel-tool-calls"], "/api/chat has no parallel switch", OLLAMA),
    ...absent(["tool-choice"], "/api/chat has no tool_choice", OLLAMA),
    ...absent(["tools.strict"], "Ollama tools have no strict flag", OLLAMA),
    ...absent(["messages.tool-result.is-error"], "no error flag", OLLAMA),
    ...absent(
      ["messages.thinking.signature"],
      "no place for a reasoning signature",
      DOCS.anthropicThinking,
    ),
    ...absent(
      ["messages.tool-call.signature"],
      "a tool call has only a function name and arguments",
      OLLAMA,
    ),
    ...absent(
      ["messages.cache", "tools.cache", "cache"],
      "no cache_control markers",
      DOCS.anthropicCaching,
    ),
    ...absent(["messages.audio", "messages.document"], "images only", OLLAMA),
    ...absent(["messages.image.url"], "images are base64 data only, no URL", OLLAMA),
    ...absent(
      ["response-format.strict"],
      'format is "json" or a schema, with no strict flag',
      OLLAMA,
    ),
    ...absent(["prediction"], "/api/chat has no predicted output", DOCS.ollamaChat),
    ...absent(
      ["mcp-servers"],
      "/api/chat declares functions the client runs; it calls no remote MCP servers",
      DOCS.ollamaChat,
    ),
    ...absent(
      ["context-management"],
      "/api/chat has no context editing: the request carries the whole history as sent",
      DOCS.ollamaChat,
    ),
    // Documented parameters of other dialects that no attribute models (docs/lens.md, "A
    // client key no reader maps"): /api/chat has no field for them. Responses' `truncation`
    // has no row: /api/chat documents a `truncate` of its own, not modelled.
    ...absent(
      ["store", "extras.previous_response_id"],
      "/api/chat keeps no responses: nothing to store or continue from",
      DOCS.ollamaChat,
    ),
    ...absent(
      ["extras.max_tool_calls", "extras.include"],
      "a Responses parameter: /api/chat has no such field",
      DOCS.ollamaChat,
    ),
    ...absent(["verbosity"], "/api/chat has no verbosity setting", DOCS.ollamaChat),
    ...absent(["extras.container"], "an Anthropic code-execution container id", DOCS.ollamaChat),
    ...absent(["headers.anthropic-beta"], "an Anthropic-only header", DOCS.anthropicBeta),
    ...absent(["headers.anthropic-version"], "an Anthropic-only header", DOCS.anthropicVersioning),
    ...absent(["headers.openai-beta"], "an OpenAI-only header", DOCS.responses),
  ],
} as const satisfies FieldTable;
