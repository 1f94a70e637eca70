/**
 * Canonical -> Gemini generateContent request body (the model and streaming go in the path:
 * see requestPath in dialects/request.ts).
 * @see https://ai.google.dev/api/generate-content#request-body
 * @see https://ai.google.dev/gemini-api/docs/function-calling (functionResponse must name the function)
 *
 * What Gemini cannot express is left out (the lens's no-equivalent table names each):
 * parallel_tool_calls, tools[].strict, metadata, user, service tier, stream_options, cache
 * markers, redacted thinking, file-id media, response-format name/strict, reasoning summary.
 * Schemas go out as `parameters` and `responseSchema` (the readers also accept
 * `parametersJsonSchema` and `responseJsonSchema` into the same canonical schema).
 * A replayed refusal is what the model said: it goes as a text part. Base64 media inside a
 * tool result go in `functionResponse.parts` (text and media there are apart, so their order
 * inside one result is not kept: text first); URL media inside a tool result cannot go.
 */
import type {
  CanonicalRequest,
  Message,
  Part,
  ReasoningConfig,
  Tool,
  ToolChoice,
} from "../canonical.ts";
import { writeValueRows } from "../field-walk.ts";
import { isRecord, type JsonRecord } from "../json.ts";
import {
  argumentsObject,
  compact,
  inlineSource,
  mergeExtras,
  nonEmpty,
  writtenWithExtras,
} from "../request-fields.ts";
import { GEMINI_FIELDS } from "./fields.ts";

/**
 * MIME types by file extension, for a URL part that came without one: Gemini tells an image
 * from a document by `fileData.mimeType` alone, so a URL image sent without it is read as a
 * document. Only types Gemini documents as inputs are listed; any other URL goes without.
 */
const MIME_BY_EXTENSION = {
  // @see https://ai.google.dev/gemini-api/docs/image-understanding#supported-formats
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  heic: "image/heic",
  heif: "image/heif",
  // @see https://ai.google.dev/gemini-api/docs/document-processing
  pdf: "application/pdf",
  // @see https://ai.google.dev/gemini-api/docs/audio#supported-formats
  wav: "audio/wav",
  mp3: "audio/mp3",
  aiff: "audio/aiff",
  aac: "audio/aac",
  ogg: "audio/ogg",
  flac: "audio/flac",
} as const satisfies Record<string, string>;

/** The MIME type a URL's path names by its extension, when Gemini documents that type. */
export function mimeTypeOfUrl(url: string): string | undefined {
  const path = url.split(/[?#]/, 1)[0] ?? "";
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return undefined;
  const extension = path.slice(dot + 1).toLowerCase();
  return Object.hasOwn(MIME_BY_EXTENSION, extension)
    ? MIME_BY_EXTENSION[extension as keyof typeof MIME_BY_EXTENSION]
    : undefined;
}

function blob(source: Part & { type: "image" | "audio" | "document" }): JsonRecord | undefined {
  const s = inlineSource(source.source);
  const audioType = source.type === "audio" && source.format ? `audio/${source.format}` : undefined;
  if (s.kind === "base64")
    return { inlineData: compact({ mimeType: s.mediaType ?? audioType, data: s.data }) };
  if (s.kind === "url") {
    const mimeType = s.mediaType ?? audioType ?? mimeTypeOfUrl(s.url);
    return { fileData: compact({ mimeType, fileUri: s.url }) };
  }
  return undefined;
}

/**
 * A function response is an object: a text that is a JSON object goes as that object,
 * any other text as `{output}` (or `{error}` for an error result), as the reference documents.
 * Several text parts are joined with a blank line: joined with nothing, "A" + "B" reads "AB".
 */
function responseObject(part: Part & { type: "tool-result" }): JsonRecord {
  const text = part.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n\n");
  if (part.isError) return { error: text };
  const parsed = text.trim().startsWith("{") ? argumentsObject(text) : undefined;
  return parsed ?? { output: text };
}

/**
 * Media inside a tool result go in `functionResponse.parts` as FunctionResponsePart
 * `inlineData` (multimodal function responses). The Gemini API documents no URL form there
 * (`fileData` is Vertex-only), so only base64 media are written.
 * @see https://ai.google.dev/api/caching#FunctionResponse
 * @see https://ai.google.dev/gemini-api/docs/function-calling#multimodal
 */
function responseMedia(part: Part): JsonRecord | undefined {
  if (part.type !== "image" && part.type !== "document") return undefined;
  const s = part.source;
  if (s.kind !== "base64") return undefined;
  return { inlineData: compact({ mimeType: s.mediaType, data: s.data }) };
}

function writePart(part: Part, same: boolean, names: Map<string, string>): JsonRecord | undefined {
  return writtenWithExtras(partBody(part, same, names), part, same) as JsonRecord | undefined;
}

function partBody(part: Part, same: boolean, names: Map<string, string>): JsonRecord | undefined {
  switch (part.type) {
    case "text":
      return { ...(same ? part.extras : undefined), text: part.text };
    case "thinking":
      return part.redacted
        ? undefined
        : compact({ text: part.text, thought: true, thoughtSignature: part.signature });
    case "reasoning":
      return { text: part.text, thought: true };
    case "refusal":
      return { text: part.text };
    case "image":
    case "audio":
    case "document":
      return blob(part);
    case "tool-call": {
      const args =
        part.arguments === "" ? undefined : (argumentsObject(part.arguments) ?? part.arguments);
      return compact({
        functionCall: compact({ id: part.id === "" ? undefined : part.id, name: part.name, args }),
        thoughtSignature: part.signature,
      });
    }
    case "tool-result": {
      const media = part.content.flatMap((p) => {
        const written = responseMedia(p);
        return written ? [written] : [];
      });
      return {
        functionResponse: compact({
          id: part.callId === "" ? undefined : part.callId,
          name: part.name ?? names.get(part.callId) ?? "",
          response: responseObject(part),
          parts: media.length > 0 ? media : undefined,
        }),
      };
    }
    case "unknown":
      return same ? (part.raw as JsonRecord) : undefined;
    default:
      return undefined;
  }
}

function writeParts(parts: Part[], same: boolean, names: Map<string, string>): JsonRecord[] {
  return parts.map((p) => writePart(p, same, names)).filter((p) => p !== undefined);
}

/** Tool messages become user contents; consecutive ones share one content, as Gemini expects. */
function writeContents(
  messages: Message[],
  same: boolean,
  names: Map<string, string>,
): JsonRecord[] {
  const out: JsonRecord[] = [];
  let toolParts: JsonRecord[] | undefined;
  for (const message of messages) {
    if (message.role === "system" || message.role === "developer") continue;
    const parts = writeParts(message.parts, same, names);
    if (message.role === "tool") {
      if (toolParts) toolParts.push(...parts);
      else {
        toolParts = parts;
        out.push({ role: "user", parts: toolParts });
      }
      continue;
    }
    toolParts = undefined;
    const role = message.role === "assistant" ? "model" : "user";
    out.push(mergeExtras({ role, parts }, same ? message.extras : undefined));
  }
  return out;
}

function writeTools(tools: Tool[], same: boolean): JsonRecord[] {
  const declarations = tools
    .filter((t) => t.kind === "function")
    .map((t) => {
      const body = compact({ name: t.name, description: t.description, parameters: t.schema });
      return same ? mergeExtras(body, t.extras) : body;
    });
  const others = same ? tools.filter((t) => t.kind !== "function").map((t) => t.extras ?? {}) : [];
  return [...(declarations.length > 0 ? [{ functionDeclarations: declarations }] : []), ...others];
}

/**
 * An allowed set that must be used is `ANY` with its names; one the model may also answer
 * around is `VALIDATED` with its names (the mode documented for allowedFunctionNames besides
 * ANY: "either function calls or natural language", calls limited to the names).
 * @see https://ai.google.dev/api/caching#FunctionCallingConfig
 */
function writeToolChoice(choice: ToolChoice): JsonRecord {
  const config =
    choice.mode === "tool"
      ? { mode: "ANY", allowedFunctionNames: [choice.name] }
      : choice.mode === "allowed"
        ? {
            mode: choice.within === "required" ? "ANY" : "VALIDATED",
            allowedFunctionNames: choice.names,
          }
        : { mode: choice.mode === "required" ? "ANY" : choice.mode.toUpperCase() };
  return { functionCallingConfig: config };
}

function writeThinking(r: ReasoningConfig | undefined): JsonRecord | undefined {
  if (!r) return undefined;
  const budget =
    r.budgetTokens ?? (r.mode === "disabled" ? 0 : r.mode === "adaptive" ? -1 : undefined);
  return nonEmpty({
    thinkingBudget: budget,
    thinkingLevel: r.effort,
    includeThoughts: r.includeThoughts,
  });
}

export function writeGeminiRequest(request: CanonicalRequest, same: boolean): JsonRecord {
  const names = new Map<string, string>();
  for (const m of request.messages)
    for (const p of m.parts) if (p.type === "tool-call") names.set(p.id, p.name);
  const format = request.responseFormat;
  const lifted = request.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .flatMap((m) => m.parts);
  const system = writeParts([...request.system, ...lifted], same, names);
  const tools = writeTools(request.tools, same);
  const body: JsonRecord = compact({
    contents: writeContents(request.messages, same, names),
    systemInstruction: system.length > 0 ? { parts: system } : undefined,
    tools: tools.length > 0 ? tools : undefined,
    toolConfig: request.toolChoice && writeToolChoice(request.toolChoice),
  });
  writeValueRows(body, request, GEMINI_FIELDS.rows, same);
  const config = nonEmpty({
    ...(isRecord(body.generationConfig) ? body.generationConfig : {}),
    responseMimeType: format
      ? format.type === "text"
        ? "text/plain"
        : "application/json"
      : undefined,
    responseSchema: format?.type === "json_schema" ? format.schema : undefined,
    thinkingConfig: writeThinking(request.reasoning),
  });
  if (config !== undefined) body.generationConfig = config;
  return body;
}
