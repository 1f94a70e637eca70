/**
 * Gemini generateContent: where each canonical request attribute sits in a request body (the
 * containers as the reader leaves them, camelCased), or why Gemini cannot carry it
 * (field-table.ts). The model and the stream choice travel in the path.
 */
import {
  absent,
  BOOLEAN,
  type FieldTable,
  NUMBER,
  STRINGS,
  spelled,
  value,
} from "../field-table.ts";
import { DOCS } from "../references.ts";

const GENERATION_CONFIG = DOCS.geminiGenerationConfig;
const PART = DOCS.geminiPart;
const RESPONSE = DOCS.geminiFunctionResponse;
const SIGNATURES = DOCS.geminiThoughtSignatures;
/** Media travel inline as base64 or by URI (`fileData`). */
const MEDIA_BY_URI = ["contents[].parts[].fileData"];

export const GEMINI_FIELDS = {
  rows: [
    spelled("model", "(path) models/{model}", DOCS.gemini),
    spelled("system", "systemInstruction", `${DOCS.gemini}#request-body`),
    spelled("messages", "contents", `${DOCS.gemini}#request-body`),
    spelled("messages.text", "contents[].parts[].text", PART),
    spelled("messages.image", "contents[].parts[].inlineData", PART, MEDIA_BY_URI),
    spelled("messages.document", "contents[].parts[].inlineData", PART, MEDIA_BY_URI),
    spelled("messages.audio", "contents[].parts[].inlineData", PART, MEDIA_BY_URI),
    spelled("messages.tool-call", "contents[].parts[].functionCall", PART),
    spelled("messages.tool-call.id", "contents[].parts[].functionCall.id", PART),
    spelled("messages.tool-call.name", "contents[].parts[].functionCall.name", PART),
    spelled("messages.tool-call.arguments", "contents[].parts[].functionCall.args", PART),
    spelled("messages.tool-call.signature", "contents[].parts[].thoughtSignature", SIGNATURES),
    spelled("messages.tool-result", "contents[].parts[].functionResponse", PART),
    // A result names its call by the function's name; the id is optional.
    spelled("messages.tool-result.call-id", "contents[].parts[].functionResponse.id", RESPONSE),
    spelled(
      "messages.tool-result.is-error",
      "contents[].parts[].functionResponse.response.error",
      RESPONSE,
    ),
    spelled("messages.thinking", "contents[].parts[].thought", PART),
    spelled("messages.thinking.signature", "contents[].parts[].thoughtSignature", SIGNATURES),
    spelled("messages.reasoning", "contents[].parts[].thought", PART),
    // A prior refusal is model text: Gemini has no refusal part.
    spelled("messages.refusal", "contents[].parts[].text", PART),
    spelled("tools", "tools[].functionDeclarations", DOCS.geminiTool),
    spelled("tools.name", "tools[].functionDeclarations[].name", DOCS.geminiFunctionDeclaration),
    spelled(
      "tools.description",
      "tools[].functionDeclarations[].description",
      DOCS.geminiFunctionDeclaration,
    ),
    spelled(
      "tools.schema",
      "tools[].functionDeclarations[].parameters",
      DOCS.geminiFunctionDeclaration,
      ["tools[].functionDeclarations[].parametersJsonSchema"],
    ),
    // A plain path, so a config the reader cannot read (a lower-case mode) is found under it
    // and judged `mangled (malformed)`; an empty config carries nothing (docs/lens.md).
    spelled("tool-choice", "toolConfig.functionCallingConfig", DOCS.geminiFunctionCallingConfig),
    spelled("response-format", "generationConfig.responseSchema", GENERATION_CONFIG, [
      "generationConfig.responseMimeType",
      "generationConfig.responseJsonSchema",
    ]),
    spelled("reasoning.mode", "generationConfig.thinkingConfig", DOCS.geminiThinkingConfig),
    // The API reference lists the levels as enum names (`LOW`, `HIGH`); the thinking guide's
    // requests send them in lower case (`"thinkingLevel": "low"`): one level either way.
    {
      ...spelled(
        "reasoning.effort",
        "generationConfig.thinkingConfig.thinkingLevel",
        DOCS.geminiThinkingConfig,
      ),
      anyCase: { see: "https://ai.google.dev/gemini-api/docs/thinking#thinking-levels" },
    },
    spelled("stream", "(path) :streamGenerateContent?alt=sse", DOCS.gemini),
    value("sampling.temperature", "generationConfig.temperature", NUMBER, GENERATION_CONFIG),
    value("sampling.top-p", "generationConfig.topP", NUMBER, GENERATION_CONFIG),
    value("sampling.top-k", "generationConfig.topK", NUMBER, GENERATION_CONFIG),
    value("sampling.max-tokens", "generationConfig.maxOutputTokens", NUMBER, GENERATION_CONFIG),
    value("sampling.stop", "generationConfig.stopSequences", STRINGS, GENERATION_CONFIG),
    value("sampling.seed", "generationConfig.seed", NUMBER, GENERATION_CONFIG),
    value(
      "sampling.presence-penalty",
      "generationConfig.presencePenalty",
      NUMBER,
      GENERATION_CONFIG,
    ),
    value(
      "sampling.frequency-penalty",
      "generationConfig.frequencyPenalty",
      NUMBER,
      GENERATION_CONFIG,
    ),
    value("sampling.n", "generationConfig.candidateCount", NUMBER, GENERATION_CONFIG),
    spelled(
      "reasoning.budget-tokens",
      "generationConfig.thinkingConfig.thinkingBudget",
      DOCS.geminiThinkingConfig,
    ),
    value("logprobs", "generationConfig.responseLogprobs", BOOLEAN, GENERATION_CONFIG),
    // "Only valid if responseLogprobs=True": the number of top logprobs at each step.
    value("top-logprobs", "generationConfig.logprobs", NUMBER, GENERATION_CONFIG),
  ],
  absent: [
    ...absent(
      ["reasoning.summary"],
      "only the Responses API asks for a reasoning summary",
      `${DOCS.responses}#responses-create-reasoning`,
    ),
    ...absent(["user"], "generateContent has no end-user id", DOCS.gemini),
    ...absent(
      ["stream-options.include-usage"],
      "every response carries usageMetadata: there is nothing to ask for",
      DOCS.geminiUsage,
    ),
    ...absent(["metadata"], "generateContent has no request metadata", DOCS.gemini),
    ...absent(["service-tier"], "generateContent has no service tier", DOCS.gemini),
    ...absent(["sampling.logit-bias"], "generationConfig has no token bias", GENERATION_CONFIG),
    ...absent(
      ["parallel-tool-calls"],
      "functionCallingConfig has no parallel-call switch",
      DOCS.geminiFunctionCallingConfig,
    ),
    ...absent(
      ["tools.strict"],
      "FunctionDeclaration has no strict flag",
      DOCS.geminiFunctionDeclaration,
    ),
    ...absent(
      ["messages.cache", "tools.cache", "cache"],
      "no cache_control markers",
      DOCS.anthropicCaching,
    ),
    ...absent(
      ["response-format.strict"],
      "generationConfig has a response schema but no strict flag",
      GENERATION_CONFIG,
    ),
    ...absent(["prediction"], "generateContent has no predicted output", DOCS.gemini),
    ...absent(
      ["mcp-servers"],
      "generateContent declares functions the client runs; it calls no remote MCP servers",
      DOCS.geminiTool,
    ),
    ...absent(
      ["context-management"],
      "generateContent has no context editing: the request carries the whole history as sent",
      DOCS.gemini,
    ),
    // Documented parameters of other dialects that no attribute models (docs/lens.md, "A
    // client key no reader maps"): generateContent has no field for them.
    ...absent(
      ["store", "extras.previous_response_id"],
      "generateContent keeps no responses: nothing to store or continue from",
      DOCS.gemini,
    ),
    ...absent(
      ["extras.truncation", "extras.max_tool_calls", "extras.include"],
      "a Responses parameter: generateContent has no such field",
      DOCS.gemini,
    ),
    ...absent(["verbosity"], "generationConfig has no verbosity setting", GENERATION_CONFIG),
    ...absent(["extras.container"], "an Anthropic code-execution container id", DOCS.gemini),
    ...absent(["headers.anthropic-beta"], "an Anthropic-only header", DOCS.anthropicBeta),
    ...absent(["headers.anthropic-version"], "an Anthropic-only header", DOCS.anthropicVersioning),
    ...absent(["headers.openai-beta"], "an OpenAI-only header", DOCS.responses),
  ],
} as const satisfies FieldTable;
