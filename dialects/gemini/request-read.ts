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
import { asArray, asNumber, asRecord, asString, isRecord, type JsonRecord } from "../json.ts";
import {
  asRecords,
  asStringArray,
  camelKeys,
  compact,
  FieldReader,
  nonEmpty,
  onlyKeys,
} from "../request-fields.ts";
import { dialectOfPath } from "../routes.ts";

/** image/* is an image, audio/* audio, anything else (pdf, text, video) a document. */
function mediaPart(source: MediaSource, mimeType: string | undefined): Part {
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
  return compact({ mimeType, value: data });
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
    const source = compact({ kind: "base64" as const, mediaType: blob.mimeType, data: blob.value });
    out.push(mediaPart(source, blob.mimeType));
  }
  return out;
}

export function readGeminiPart(raw: unknown): Part {
  const original = asRecord(raw);
  if (!original) return { type: "unknown", raw };
  const part = camelKeys(original);
  const signature = part.thoughtSignature;
  if (signature !== undefined && typeof signature !== "string") return { type: "unknown", raw };
  if (typeof part.text === "string") {
    if (part.thought === true && onlyKeys(part, ["text", "thought", "thoughtSignature"])) {
      return compact({ type: "thinking" as const, text: part.text, signature });
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
    const { text, ...extras } = part;
    return compact({ type: "text" as const, text, extras: nonEmpty(extras) });
  }
  if (part.inlineData !== undefined && onlyKeys(part, ["inlineData"])) {
    const blob = readBlob(part.inlineData, "data");
    if (blob)
      return mediaPart(
        compact({ kind: "base64" as const, mediaType: blob.mimeType, data: blob.value }),
        blob.mimeType,
      );
  }
  if (part.fileData !== undefined && onlyKeys(part, ["fileData"])) {
    const blob = readBlob(part.fileData, "fileUri");
    if (blob)
      return mediaPart(
        compact({ kind: "url" as const, url: blob.value, mediaType: blob.mimeType }),
        blob.mimeType,
      );
  }
  const call = asRecord(part.functionCall);
  if (
    call &&
    onlyKeys(part, ["functionCall", "thoughtSignature"]) &&
    onlyKeys(call, ["id", "name", "args"])
  ) {
    const args = call.args;
    if (
      typeof call.name === "string" &&
      (call.id === undefined || typeof call.id === "string") &&
      (args === undefined || isRecord(args))
    ) {
      return compact({
        type: "tool-call" as const,
        id: call.id ?? "",
        name: call.name,
        arguments: args === undefined ? "" : JSON.stringify(args),
        signature,
      });
    }
  }
  const response = asRecord(part.functionResponse);
  if (
    response &&
    onlyKeys(part, ["functionResponse"]) &&
    onlyKeys(response, ["id", "name", "response", "parts"])
  ) {
    const body = asRecord(response.response);
    const media = response.parts === undefined ? [] : readResponseMedia(response.parts);
    if (
      typeof response.name === "string" &&
      (response.id === undefined || typeof response.id === "string") &&
      body &&
      media
    ) {
      const { content, isError } = readFunctionResponse(body);
      return compact({
        type: "tool-result" as const,
        callId: response.id ?? "",
        name: response.name,
        content: [...content, ...media],
        isError,
      });
    }
  }
  return { type: "unknown", raw };
}

function readParts(value: unknown): Part[] | undefined {
  return asArray(value)?.map(readGeminiPart);
}

function readContent(raw: JsonRecord): Message {
  const f = new FieldReader(camelKeys(raw));
  const role = f.take("role", (v) =>
    v === "user" ? "user" : v === "model" ? "assistant" : undefined,
  );
  const parts = f.take("parts", readParts) ?? [];
  return compact({ role: role ?? "user", parts, extras: nonEmpty(f.rest()) });
}

function readDeclaration(raw: JsonRecord): Tool {
  const f = new FieldReader(camelKeys(raw));
  const name = f.take("name", asString) ?? "";
  const description = f.take("description", asString);
  // `parameters` (OpenAPI subset) and `parametersJsonSchema` are exclusive spellings of one schema.
  const key =
    f.has("parameters") || !f.has("parametersJsonSchema") ? "parameters" : "parametersJsonSchema";
  const schema = f.has(key) ? f.take(key, (v) => v) : undefined;
  return compact({ kind: "function", name, description, schema, extras: nonEmpty(f.rest()) });
}

/** Each functionDeclaration is one tool; any other tool entry (googleSearch, codeExecution) is kept raw. */
function readTools(value: unknown): Tool[] | undefined {
  const entries = asRecords(value);
  if (!entries) return undefined;
  return entries.flatMap((entry) => {
    const tool = camelKeys(entry);
    const declarations = asRecords(tool.functionDeclarations);
    if (declarations && onlyKeys(tool, ["functionDeclarations"]))
      return declarations.map(readDeclaration);
    const [kind] = Object.keys(tool);
    return [{ kind: Object.keys(tool).length === 1 && kind ? kind : "", name: "", extras: tool }];
  });
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
    return nonEmpty<ReasoningConfig>({
      mode,
      budgetTokens: budget,
      effort: h.take("thinkingLevel", asString),
    });
  });
}

/** camelKeys on the body and on the fixed containers whose keys are field names (not data). */
function camelContainers(body: JsonRecord): JsonRecord {
  // Copies, never writes into the caller's objects (camelKeys may return its argument).
  const out = { ...camelKeys(body) };
  const nest = (record: JsonRecord, key: string, inner?: string) => {
    const value = record[key];
    if (!isRecord(value)) return;
    const camel = { ...camelKeys(value) };
    if (inner) nest(camel, inner);
    record[key] = camel;
  };
  nest(out, "generationConfig", "thinkingConfig");
  nest(out, "toolConfig", "functionCallingConfig");
  nest(out, "systemInstruction");
  return out;
}

/** Same tail as routes.ts GEMINI_GENERATE, found anywhere: a gateway's mount prefix or a doubled version segment still names the model. */
const GENERATE_TAIL = /\/models\/([^/:?]+):(generateContent|streamGenerateContent)(?:\?|$)/;

/**
 * The model and stream choice of a generate path. dialectOfPath knows the documented paths;
 * the looser tail match keeps the model readable when a gateway adds a prefix (the lens
 * judges the path itself elsewhere).
 */
function modelOfPath(path: string): { model: string; stream: boolean } | undefined {
  const route = dialectOfPath(path);
  if (route?.dialect === "gemini" && route.kind === "generate" && route.model !== undefined) {
    return { model: route.model, stream: route.stream === true };
  }
  const tail = GENERATE_TAIL.exec(path);
  if (!tail) return undefined;
  let model = tail[1] ?? "";
  try {
    model = decodeURIComponent(model);
  } catch {
    // A malformed escape stays as sent.
  }
  return { model, stream: tail[2] === "streamGenerateContent" };
}

export function readGeminiRequest(
  body: JsonRecord,
  context: { path?: string } = {},
): CanonicalRequest {
  const f = new FieldReader(camelContainers(body));
  const fromPath = context.path === undefined ? undefined : modelOfPath(context.path);
  const messages = f.take("contents", asRecords)?.map(readContent) ?? [];
  const system = f.nested("systemInstruction", (g) => g.take("parts", readParts)) ?? [];
  const tools = f.take("tools", readTools) ?? [];
  const toolChoice = f.nested("toolConfig", readToolConfig);
  let responseFormat: ResponseFormat | undefined;
  let reasoning: ReasoningConfig | undefined;
  const sampling =
    f.nested("generationConfig", (g) => {
      responseFormat = readFormat(g);
      reasoning = readThinking(g);
      return compact({
        temperature: g.take("temperature", asNumber),
        topP: g.take("topP", asNumber),
        topK: g.take("topK", asNumber),
        maxTokens: g.take("maxOutputTokens", asNumber),
        stop: g.take("stopSequences", asStringArray),
        seed: g.take("seed", asNumber),
        presencePenalty: g.take("presencePenalty", asNumber),
        frequencyPenalty: g.take("frequencyPenalty", asNumber),
        n: g.take("candidateCount", asNumber),
      });
    }) ?? {};
  return compact({
    dialect: "gemini",
    model: fromPath?.model,
    system,
    messages,
    tools,
    toolChoice,
    sampling,
    responseFormat,
    reasoning,
    stream: fromPath?.stream,
    extras: f.rest(),
  });
}
