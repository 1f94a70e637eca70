/**
 * OpenAI Chat Completions request -> canonical.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 * @see https://api-docs.deepseek.com/guides/reasoning_model (assistant `reasoning_content`)
 * @see https://platform.moonshot.ai/docs/api/chat (assistant `reasoning_content`, required content)
 */
import type {
  CanonicalRequest,
  Message,
  Part,
  ResponseFormat,
  Role,
  Tool,
  ToolChoice,
} from "../canonical.ts";
import { BodyReader, readValueRows } from "../field-walk.ts";
import { asArray, asBoolean, asRecord, asString, type JsonRecord } from "../json.ts";
import {
  asRecords,
  FieldReader,
  onlyKeys,
  otherKeys,
  parseDataUrl,
  readCacheMarker,
  readEach,
  readNested,
  withExtras,
} from "../request-fields.ts";
import { CHAT_FIELDS } from "./fields.ts";

const ROLES = ["system", "developer", "user", "assistant", "tool"] as const satisfies Role[];

function asRole(value: unknown): Role | undefined {
  return (ROLES as readonly unknown[]).includes(value) ? (value as Role) : undefined;
}

const TEXT_KEYS = ["type", "text", "cache_control"];
const IMAGE_KEYS = ["type", "image_url"];

/** One content part of a Chat message; a shape this reader does not know is kept whole. */
export function readChatPart(raw: unknown): Part {
  const part = asRecord(raw);
  if (!part) return { type: "unknown", raw };
  if (part.type === "text" && typeof part.text === "string") {
    // `cache_control` on a text part is the Anthropic marker that OpenAI-compatible gateways
    // (LiteLLM, OpenRouter) accept and forward; read as a cache marker so it compares as one.
    const text: Part & { type: "text" } = { type: "text", text: part.text };
    const cacheRaw = part.cache_control;
    const cache = cacheRaw === undefined ? undefined : readCacheMarker(cacheRaw);
    if (cache !== undefined) text.cache = cache;
    let extras = otherKeys(part, TEXT_KEYS);
    if (cacheRaw !== undefined && cache === undefined) {
      extras ??= {};
      extras.cache_control = cacheRaw;
    }
    if (extras !== undefined) text.extras = extras;
    return text;
  }
  // Keys beside a part's own are kept as its extras, never void it (withExtras).
  if (part.type === "refusal" && typeof part.refusal === "string") {
    const read: Part & { type: "refusal" } = { type: "refusal", text: part.refusal };
    return withExtras(read, part, ["type", "refusal"]);
  }
  const image = asRecord(part.image_url);
  // A key beside `image_url` does not void the image (issue 20: readers tolerate unknown sibling
  // keys): it is kept as an extra, which the lens judges on its own.
  if (part.type === "image_url" && image) {
    if (typeof image.url === "string" && onlyKeys(image, ["url", "detail"])) {
      const detail = image.detail;
      if (detail === undefined || typeof detail === "string") {
        const inline = parseDataUrl(image.url);
        const source = inline
          ? ({ kind: "base64", mediaType: inline.mediaType, data: inline.data } as const)
          : ({ kind: "url", url: image.url } as const);
        const read: Part & { type: "image" } =
          detail === undefined ? { type: "image", source } : { type: "image", source, detail };
        return withExtras(read, part, IMAGE_KEYS);
      }
    }
  }
  const audio = asRecord(part.input_audio);
  if (part.type === "input_audio" && audio) {
    if (
      typeof audio.data === "string" &&
      typeof audio.format === "string" &&
      onlyKeys(audio, ["data", "format"])
    ) {
      const read: Part & { type: "audio" } = {
        type: "audio",
        source: { kind: "base64", data: audio.data },
        format: audio.format,
      };
      return withExtras(read, part, ["type", "input_audio"]);
    }
  }
  const file = asRecord(part.file);
  if (part.type === "file" && file) {
    const document = readFile(file);
    if (document) return withExtras(document, part, ["type", "file"]);
  }
  return { type: "unknown", raw };
}

/** Chat `file` part: exactly one of file_id or file_data, with an optional filename (-> title). */
function readFile(file: JsonRecord): (Part & { type: "document" }) | undefined {
  if (!onlyKeys(file, ["file_id", "file_data", "filename"])) return undefined;
  const { file_id: fileId, file_data: fileData, filename } = file;
  if (filename !== undefined && typeof filename !== "string") return undefined;
  if (typeof fileId === "string" && fileData === undefined) {
    const source = { kind: "file-id", fileId } as const;
    return filename === undefined
      ? { type: "document", source }
      : { type: "document", source, title: filename };
  }
  if (typeof fileData === "string" && fileId === undefined) {
    const inline = parseDataUrl(fileData);
    const source = inline
      ? ({ kind: "base64", mediaType: inline.mediaType, data: inline.data } as const)
      : ({ kind: "base64", data: fileData } as const);
    return filename === undefined
      ? { type: "document", source }
      : { type: "document", source, title: filename };
  }
  return undefined;
}

/** `content`: a string is one text part (`""` included); null or absent is no parts. */
export function readChatContent(value: unknown): Part[] | undefined {
  if (value === null) return [];
  if (typeof value === "string") return [{ type: "text", text: value }];
  if (!Array.isArray(value)) return undefined;
  const parts: Part[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) parts[i] = readChatPart(value[i]);
  return parts;
}

/**
 * A tool call, and whether the canonical part holds all of it. A call with extra keys (an
 * `index` left over from stream assembly) stays typed; the caller then also keeps the raw
 * list in message.extras. A call without its core fields is kept whole as an unknown part.
 */
function readToolCall(raw: JsonRecord): { part: Part; exact: boolean } {
  const fn = asRecord(raw.function);
  if (
    (raw.type === "function" || raw.type === undefined) &&
    typeof raw.id === "string" &&
    fn &&
    typeof fn.name === "string" &&
    typeof fn.arguments === "string"
  ) {
    const signature = readThoughtSignature(raw.extra_content);
    const keys = signature?.exact
      ? ["id", "type", "function", "extra_content"]
      : ["id", "type", "function"];
    const part: Part & { type: "tool-call" } = {
      type: "tool-call",
      id: raw.id,
      name: fn.name,
      arguments: fn.arguments,
    };
    if (signature !== undefined) part.signature = signature.value;
    return {
      part,
      exact: raw.type === "function" && onlyKeys(raw, keys) && onlyKeys(fn, ["name", "arguments"]),
    };
  }
  return { part: { type: "unknown", raw }, exact: true };
}

/**
 * Gemini's OpenAI-compatible endpoint returns a call's thought signature in
 * `extra_content.google.thought_signature` and requires it back on the next turn: it is the
 * call's signature (Gemini `thoughtSignature`). `exact` when that is all `extra_content` holds.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
function readThoughtSignature(value: unknown): { value: string; exact: boolean } | undefined {
  const extra = asRecord(value);
  const google = asRecord(extra?.google);
  const signature = google?.thought_signature;
  if (!extra || !google || typeof signature !== "string") return undefined;
  return {
    value: signature,
    exact: onlyKeys(extra, ["google"]) && onlyKeys(google, ["thought_signature"]),
  };
}

const MESSAGE_KEYS = ["role", "content"];

function readMessage(raw: JsonRecord): Message {
  // The usual message is {role, content} (not a tool result): read without a FieldReader.
  const role = asRole(raw.role);
  if (role !== undefined && role !== "tool" && onlyKeys(raw, MESSAGE_KEYS)) {
    const content = raw.content;
    if (content === undefined) return { role, parts: [] };
    const parts = readChatContent(content);
    if (parts !== undefined) return { role, parts };
  }
  return readFullMessage(raw);
}

/** Any message: a tool result, other keys, an odd role or content. */
function readFullMessage(raw: JsonRecord): Message {
  const f = new FieldReader(raw);
  const role = f.take("role", asRole) ?? "user";
  const name = f.take("name", asString);
  const parts: Part[] = [];
  if (role === "assistant") {
    const reasoning = f.take("reasoning_content", asString);
    if (reasoning !== undefined) parts.push({ type: "reasoning", text: reasoning });
  }
  const content = f.has("content") ? f.take("content", readChatContent) : [];
  if (role === "tool") {
    const callId = f.take("tool_call_id", asString);
    if (callId !== undefined) parts.push({ type: "tool-result", callId, content: content ?? [] });
    else if (content !== undefined) for (const part of content) parts.push(part);
  } else if (content !== undefined) {
    for (const part of content) parts.push(part);
  }
  if (role === "assistant") {
    const refusal = f.take("refusal", asString);
    if (refusal !== undefined) parts.push({ type: "refusal", text: refusal });
    // An empty tool_calls array is a wire detail gateways add or drop: kept raw in extras.
    const calls = f.take("tool_calls", (v) => {
      const list = asRecords(v);
      return list && list.length > 0 ? list.map(readToolCall) : undefined;
    });
    if (calls !== undefined) {
      let exact = true;
      for (const call of calls) {
        parts.push(call.part);
        if (!call.exact) exact = false;
      }
      if (!exact) f.keep("tool_calls", raw.tool_calls);
    }
  }
  const message: Message = { role, parts };
  if (name !== undefined) message.name = name;
  const extras = f.leftover();
  if (extras !== undefined) message.extras = extras;
  return message;
}

function readTool(raw: JsonRecord): Tool {
  const f = new FieldReader(raw);
  const kind = f.take("type", asString);
  if (kind === "function") {
    const fn = readNested(raw.function, (g) => ({
      name: g.take("name", asString),
      description: g.take("description", asString),
      schema: g.raw("parameters"),
      strict: g.take("strict", asBoolean),
    }));
    if (fn && fn.value.name !== undefined) {
      f.keep("function", fn.leftover);
      const tool: Tool = { kind, name: fn.value.name };
      if (fn.value.description !== undefined) tool.description = fn.value.description;
      if (fn.value.schema !== undefined) tool.schema = fn.value.schema;
      if (fn.value.strict !== undefined) tool.strict = fn.value.strict;
      const extras = f.leftover();
      if (extras !== undefined) tool.extras = extras;
      return tool;
    }
  }
  // Custom and future tool types keep everything but their type in extras; a custom tool's
  // name is under `custom` (`{type: "custom", custom: {name, ...}}`), read so a tool choice
  // can name it.
  const named = kind === "custom" ? asRecord(raw.custom)?.name : raw.name;
  const tool: Tool = { kind: kind ?? "", name: typeof named === "string" ? named : "" };
  const extras = otherKeys(raw, TYPE_KEY);
  if (extras !== undefined) tool.extras = extras;
  return tool;
}

const TYPE_KEY = ["type"];

/**
 * `{type: "allowed_tools", allowed_tools: {mode, tools: [{type: "function", function: {name}}]}}`;
 * a set naming any other kind of tool (custom) stays raw.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice
 */
function readAllowedTools(choice: JsonRecord): ToolChoice | undefined {
  const allowed = asRecord(choice.allowed_tools);
  if (!allowed || !onlyKeys(choice, ["type", "allowed_tools"])) return undefined;
  if (!onlyKeys(allowed, ["mode", "tools"])) return undefined;
  const within = allowed.mode;
  if (within !== "auto" && within !== "required") return undefined;
  const names: string[] = [];
  for (const tool of asArray(allowed.tools) ?? [undefined]) {
    const entry = asRecord(tool);
    const fn = asRecord(entry?.function);
    if (entry?.type !== "function" || !onlyKeys(entry, ["type", "function"])) return undefined;
    if (!fn || typeof fn.name !== "string" || !onlyKeys(fn, ["name"])) return undefined;
    names.push(fn.name);
  }
  // An empty set allows nothing: not a choice the canonical form holds, so it stays raw.
  return names.length > 0 ? { mode: "allowed", within, names } : undefined;
}

function readToolChoice(value: unknown): ToolChoice | undefined {
  if (value === "auto" || value === "none" || value === "required") return { mode: value };
  const choice = asRecord(value);
  if (choice?.type === "allowed_tools") return readAllowedTools(choice);
  const fn = asRecord(choice?.function);
  if (
    choice?.type === "function" &&
    fn &&
    typeof fn.name === "string" &&
    onlyKeys(choice, ["type", "function"]) &&
    onlyKeys(fn, ["name"])
  ) {
    return { mode: "tool", name: fn.name };
  }
  // A named custom tool: `{type: "custom", custom: {name}}`, forced like a function.
  const custom = asRecord(choice?.custom);
  if (
    choice?.type === "custom" &&
    custom &&
    typeof custom.name === "string" &&
    onlyKeys(choice, ["type", "custom"]) &&
    onlyKeys(custom, ["name"])
  ) {
    return { mode: "tool", name: custom.name };
  }
  return undefined;
}

function readResponseFormat(f: FieldReader): ResponseFormat | undefined {
  const raw = asRecord(f.record.response_format);
  // A key beside the format's own does not void it: kept as the format's extras (withExtras).
  if (raw?.type === "text" || raw?.type === "json_object") {
    f.keep("response_format", undefined);
    return withExtras<ResponseFormat>({ type: raw.type }, raw, ["type"]);
  }
  if (raw?.type === "json_schema") {
    const schema = readNested(raw.json_schema, (g) => ({
      name: g.take("name", asString),
      schema: g.raw("schema"),
      strict: g.take("strict", asBoolean),
    }));
    if (schema) {
      f.keep("response_format", schema.leftover && { json_schema: schema.leftover });
      const format: ResponseFormat = { type: "json_schema" };
      const { name, schema: jsonSchema, strict } = schema.value;
      if (name !== undefined) format.name = name;
      if (jsonSchema !== undefined) format.schema = jsonSchema;
      if (strict !== undefined) format.strict = strict;
      return withExtras(format, raw, ["type", "json_schema"]);
    }
  }
  return f.take("response_format", () => undefined);
}

export function readChatRequest(raw: JsonRecord): CanonicalRequest {
  const body = new BodyReader(raw);
  const f = body.root;
  const out = { dialect: "openai-chat", system: [], sampling: {} } as unknown as CanonicalRequest;
  const messageList = f.take("messages", asRecords);
  out.messages = messageList === undefined ? [] : readEach(messageList, readMessage);
  out.tools = f.take("tools", asRecords)?.map(readTool) ?? [];
  f.takeInto(out, "toolChoice", "tool_choice", readToolChoice);
  const responseFormat = readResponseFormat(f);
  if (responseFormat !== undefined) out.responseFormat = responseFormat;
  const streamOptions = f.nested("stream_options", (g) => {
    const includeUsage = g.take("include_usage", asBoolean);
    return includeUsage === undefined ? {} : { includeUsage };
  });
  if (streamOptions !== undefined) out.streamOptions = streamOptions;
  readValueRows(body, out, CHAT_FIELDS.rows);
  out.extras = body.finish();
  return out;
}
