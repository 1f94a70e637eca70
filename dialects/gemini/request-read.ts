/**
 * Gemini generateContent request -> canonical. The model and the stream choice are in the
 * path (`/v1beta/models/{model}:generateContent` or `:streamGenerateContent`), not the body.
 * @see https://ai.google.dev/api/generate-content#request-body
 * @see https://ai.google.dev/api/caching#Content (Content, Part, FunctionCall, FunctionResponse)
 * @see https://ai.google.dev/api/caching#Tool (functionDeclarations, parametersJsonSchema)
 * @see https://ai.google.dev/api/caching#ToolConfig (functionCallingConfig)
 * @see https://ai.google.dev/api/generate-content#generationconfig (incl. thinkingConfig)
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 *
 * Decisions: a functionCall without `id` gets id "" (Gemini matches calls by name and
 * order); `args` is JSON.stringify'd, absent args are ""; a functionResponse's `response`
 * object is one text part of its JSON, except `{output: "..."}` and `{error: "..."}`,
 * which the reference defines as the output and the error and are read as that text; its
 * `parts` (inline media, multimodal function responses) follow that text in the result.
 */
import type {
  CanonicalRequest,
  MediaSource,
  Message,
  Part,
  ReasoningConfig,
  ResponseFormat,
  Tool,
  ToolChoice,
} from "../canonical.ts";
import { BodyReader, readValueRows } from "../field-walk.ts";
import {
  asArray,
  asBoolean,
  asNumber,
  asRecord,
  asString,
  isRecord,
  type JsonRecord,
} from "../json.ts";
import {
  asRecords,
  asStringArray,
  camelKeys,
  FieldReader,
  nonEmpty,
  onlyKeys,
  otherKeys,
  readEach,
  withExtras,
} from "../request-fields.ts";
import { GEMINI_FIELDS } from "./fields.ts";
import { modelOfPath } from "./model-path.ts";
import { camelContainers } from "./snake-case.ts";

/** image/* is an image, audio/* audio, anything else (pdf, text, video) a document. */
function mediaPart(
  source: MediaSource,
  mimeType: string | undefined,
): Extract<Part, { type: "image" | "audio" | "document" }> {
  if (mimeType?.startsWith("image/")) return { type: "image", source };
  if (mimeType?.startsWith("audio/")) return { type: "audio", source };
  return { type: "document", source };
}

function readBlob(
  value: unknown,
  uriKey: "data" | "fileUri",
): { mimeType?: string; value: string } | undefined {
  const raw = asRecord(value);
  if (!raw) return undefined;
  const blob = camelKeys(raw);
  const mimeType = blob.mimeType;
  const data = blob[uriKey];
  if (typeof data !== "string" || (mimeType !== undefined && typeof mimeType !== "string"))
    return undefined;
  if (!onlyKeys(blob, ["mimeType", uriKey])) return undefined;
  return mimeType === undefined ? { value: data } : { mimeType, value: data };
}

/** `{output: "x"}` and `{error: "x"}` are the documented shapes; any other object is its JSON. */
function readFunctionResponse(response: JsonRecord): { content: Part[]; isError?: boolean } {
  const keys = Object.keys(response);
  if (keys.length === 1 && typeof response.output === "string") {
    return { content: [{ type: "text", text: response.output }] };
  }
  if (keys.length === 1 && typeof response.error === "string") {
    return { content: [{ type: "text", text: response.error }], isError: true };
  }
  return { content: [{ type: "text", text: JSON.stringify(response) }] };
}

/**
 * `functionResponse.parts`: media beside the response object (FunctionResponsePart, whose
 * only Gemini API form is `inlineData`). Undefined when any entry is not that shape, so the
 * caller keeps the whole part raw.
 * @see https://ai.google.dev/api/caching#FunctionResponse
 */
function readResponseMedia(value: unknown): Part[] | undefined {
  const entries = asArray(value);
  if (!entries) return undefined;
  const out: Part[] = [];
  for (const entry of entries) {
    const raw = asRecord(entry);
    const part = raw && camelKeys(raw);
    if (!part || !onlyKeys(part, ["inlineData"])) return undefined;
    const blob = readBlob(part.inlineData, "data");
    if (!blob) return undefined;
    out.push(mediaPart(base64Source(blob), blob.mimeType));
  }
  return out;
}

function base64Source(blob: { mimeType?: string; value: string }): MediaSource {
  return blob.mimeType === undefined
    ? { kind: "base64", data: blob.value }
    : { kind: "base64", mediaType: blob.mimeType, data: blob.value };
}

const TEXT_KEY = ["text"];
/** A part's own keys in both spellings the API takes; extras are kept as sent. */
const INLINE_KEYS = ["inlineData", "inline_data"];
const FILE_KEYS = ["fileData", "file_data"];
const CALL_KEYS = ["functionCall", "function_call", "thoughtSignature", "thought_signature"];
const RESPONSE_KEYS = ["functionResponse", "function_response"];

export function readGeminiPart(raw: unknown): Part {
  const original = asRecord(raw);
  if (!original) return { type: "unknown", raw };
  const part = camelKeys(original);
  const signature = part.thoughtSignature;
  if (signature !== undefined && typeof signature !== "string") return { type: "unknown", raw };
  if (typeof part.text === "string") {
    if (part.thought === true && onlyKeys(part, ["text", "thought", "thoughtSignature"])) {
      return signature === undefined
        ? { type: "thinking", text: part.text }
        : { type: "thinking", text: part.text, signature };
    }
    // An empty text part whose only content is a thoughtSignature is reasoning state, not
    // text: Gemini returns signatures on such parts and wants them back verbatim (the reply
    // reader reads them the same way). It is a thinking part with no text.
    if (
      part.text === "" &&
      signature !== undefined &&
      onlyKeys(part, ["text", "thoughtSignature"])
    ) {
      return { type: "thinking", text: "", signature };
    }
    const extras = otherKeys(part, TEXT_KEY);
    return extras === undefined
      ? { type: "text", text: part.text }
      : { type: "text", text: part.text, extras };
  }
  // Keys beside a part's own are kept as its extras, never void it (withExtras).
  if (part.inlineData !== undefined) {
    const blob = readBlob(part.inlineData, "data");
    if (blob)
      return withExtras(mediaPart(base64Source(blob), blob.mimeType), original, INLINE_KEYS);
  }
  if (part.fileData !== undefined) {
    const blob = readBlob(part.fileData, "fileUri");
    if (blob) {
      const source: MediaSource =
        blob.mimeType === undefined
          ? { kind: "url", url: blob.value }
          : { kind: "url", url: blob.value, mediaType: blob.mimeType };
      return withExtras(mediaPart(source, blob.mimeType), original, FILE_KEYS);
    }
  }
  const call = asRecord(part.functionCall);
  if (call && onlyKeys(call, ["id", "name", "args"])) {
    const args = call.args;
    if (
      typeof call.name === "string" &&
      (call.id === undefined || typeof call.id === "string") &&
      (args === undefined || isRecord(args))
    ) {
      const part: Part & { type: "tool-call" } = {
        type: "tool-call",
        id: call.id ?? "",
        name: call.name,
        arguments: args === undefined ? "" : JSON.stringify(args),
      };
      if (signature !== undefined) part.signature = signature;
      return withExtras(part, original, CALL_KEYS);
    }
  }
  const response = asRecord(part.functionResponse);
  if (response && onlyKeys(response, ["id", "name", "response", "parts"])) {
    const body = asRecord(response.response);
    const media = response.parts === undefined ? [] : readResponseMedia(response.parts);
    if (
      typeof response.name === "string" &&
      (response.id === undefined || typeof response.id === "string") &&
      body &&
      media
    ) {
      const { content, isError } = readFunctionResponse(body);
      for (const part of media) content.push(part);
      const part: Part & { type: "tool-result" } = {
        type: "tool-result",
        callId: response.id ?? "",
        name: response.name,
        content,
      };
      if (isError !== undefined) part.isError = isError;
      return withExtras(part, original, RESPONSE_KEYS);
    }
  }
  return { type: "unknown", raw };
}

function readParts(value: unknown): Part[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const parts: Part[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) parts[i] = readGeminiPart(value[i]);
  return parts;
}

const CONTENT_KEYS = ["role", "parts"];

function readContent(raw: JsonRecord): Message {
  // The usual content is {role, parts} in camelCase: read without a FieldReader.
  const role = raw.role === "user" ? "user" : raw.role === "model" ? "assistant" : undefined;
  if (role !== undefined && onlyKeys(raw, CONTENT_KEYS)) {
    const parts = raw.parts === undefined ? [] : readParts(raw.parts);
    if (parts !== undefined) return { role, parts };
  }
  const f = new FieldReader(camelKeys(raw));
  const taken = f.take("role", (v) =>
    v === "user" ? "user" : v === "model" ? "assistant" : undefined,
  );
  const parts = f.take("parts", readParts) ?? [];
  const extras = f.leftover();
  return extras === undefined
    ? { role: taken ?? "user", parts }
    : { role: taken ?? "user", parts, extras };
}

function readDeclaration(raw: JsonRecord): Tool {
  const f = new FieldReader(camelKeys(raw));
  const tool: Tool = { kind: "function", name: f.take("name", asString) ?? "" };
  f.takeInto(tool, "description", "description", asString);
  // `parameters` (OpenAPI subset) and `parametersJsonSchema` are exclusive spellings of one schema.
  const key =
    f.has("parameters") || !f.has("parametersJsonSchema") ? "parameters" : "parametersJsonSchema";
  const schema = f.raw(key);
  if (schema !== undefined) tool.schema = schema;
  const extras = f.leftover();
  if (extras !== undefined) tool.extras = extras;
  return tool;
}

const DECLARATIONS_KEY = ["functionDeclarations"];

/** Each functionDeclaration is one tool; any other tool entry (googleSearch, codeExecution) is kept raw. */
function readTools(value: unknown): Tool[] | undefined {
  const entries = asRecords(value);
  if (!entries) return undefined;
  const tools: Tool[] = [];
  for (const entry of entries) {
    const tool = camelKeys(entry);
    const declarations = asRecords(tool.functionDeclarations);
    if (declarations && onlyKeys(tool, DECLARATIONS_KEY)) {
      for (const declaration of declarations) tools.push(readDeclaration(declaration));
      continue;
    }
    const keys = Object.keys(tool);
    tools.push({ kind: keys.length === 1 ? (keys[0] as string) : "", name: "", extras: tool });
  }
  return tools;
}

function readToolConfig(g: FieldReader): ToolChoice | undefined {
  return g.nested("functionCallingConfig", (h) => {
    const mode = h.take("mode", asString);
    const names = h.has("allowedFunctionNames")
      ? h.take("allowedFunctionNames", asStringArray)
      : [];
    if (mode === "AUTO" && names?.length === 0) return { mode: "auto" };
    if (mode === "NONE" && names?.length === 0) return { mode: "none" };
    if (mode === "ANY" && names?.length === 0) return { mode: "required" };
    if (mode === "ANY" && names?.length === 1 && names[0] !== undefined)
      return { mode: "tool", name: names[0] };
    // Several names under ANY, or any under VALIDATED, are an allowed set (one name under ANY
    // is read as that tool forced: the same meaning, see dialects/tool-choice.ts).
    if (mode === "ANY" && names && names.length > 1)
      return { mode: "allowed", within: "required", names };
    if (mode === "VALIDATED" && names && names.length > 0)
      return { mode: "allowed", within: "auto", names };
    return undefined;
  });
}

/** responseMimeType with an optional schema: application/json is json_object or json_schema. */
function readFormat(g: FieldReader): ResponseFormat | undefined {
  const mime = g.record.responseMimeType;
  const schemaKey =
    g.has("responseSchema") || !g.has("responseJsonSchema")
      ? "responseSchema"
      : "responseJsonSchema";
  if (mime === "text/plain" && !g.has(schemaKey)) {
    g.take("responseMimeType", asString);
    return { type: "text" };
  }
  if (mime !== "application/json") return undefined;
  g.take("responseMimeType", asString);
  if (!g.has(schemaKey)) return { type: "json_object" };
  return { type: "json_schema", schema: g.take(schemaKey, (v) => v) };
}

/** thinkingBudget: 0 turns thinking off, -1 lets the model decide, N > 0 is a budget; thinkingLevel is an effort. */
function readThinking(g: FieldReader): ReasoningConfig | undefined {
  return g.nested("thinkingConfig", (h) => {
    const budget = h.take("thinkingBudget", asNumber);
    const mode =
      budget === undefined
        ? undefined
        : budget === 0
          ? "disabled"
          : budget < 0
            ? "adaptive"
            : "enabled";
    const effort = h.take("thinkingLevel", asString);
    const includeThoughts = h.take("includeThoughts", asBoolean);
    const config: ReasoningConfig = {};
    if (mode !== undefined) {
      config.mode = mode;
      config.budgetTokens = budget;
    }
    if (effort !== undefined) config.effort = effort;
    if (includeThoughts !== undefined) config.includeThoughts = includeThoughts;
    return nonEmpty(config);
  });
}

export function readGeminiRequest(
  raw: JsonRecord,
  context: { path?: string } = {},
): CanonicalRequest {
  const body = new BodyReader(camelContainers(raw));
  const f = body.root;
  const fromPath = context.path === undefined ? undefined : modelOfPath(context.path);
  const contents = f.take("contents", asRecords);
  const out: CanonicalRequest = {
    dialect: "gemini",
    system: [],
    messages: contents === undefined ? [] : readEach(contents, readContent),
    tools: [],
    sampling: {},
    extras: {},
  };
  if (fromPath !== undefined) {
    out.model = fromPath.model;
    out.stream = fromPath.stream;
  }
  out.system = f.nested("systemInstruction", (g) => g.take("parts", readParts)) ?? [];
  out.tools = f.take("tools", readTools) ?? [];
  const toolChoice = f.nested("toolConfig", readToolConfig);
  if (toolChoice !== undefined) out.toolChoice = toolChoice;
  // generationConfig holds the sampling values (the table's rows) beside the format and the
  // thinking config, which this reader reads itself from the same container.
  const config = body.at("generationConfig");
  if (config) {
    const responseFormat = readFormat(config);
    if (responseFormat !== undefined) out.responseFormat = responseFormat;
    const reasoning = readThinking(config);
    if (reasoning !== undefined) out.reasoning = reasoning;
  }
  readValueRows(body, out, GEMINI_FIELDS.rows);
  out.extras = body.finish();
  return out;
}
