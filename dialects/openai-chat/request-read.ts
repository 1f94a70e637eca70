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
import { asArray, asBoolean, asNumber, asRecord, asString, type JsonRecord } from "../json.ts";
import {
  asRecords,
  asStopList,
  compact,
  FieldReader,
  nonEmpty,
  onlyKeys,
  parseDataUrl,
  readCacheMarker,
  readNested,
} from "../request-fields.ts";

const ROLES = ["system", "developer", "user", "assistant", "tool"] as const satisfies Role[];

function asRole(value: unknown): Role | undefined {
  return (ROLES as readonly unknown[]).includes(value) ? (value as Role) : undefined;
}

/** One content part of a Chat message; a shape this reader does not know is kept whole. */
export function readChatPart(raw: unknown): Part {
  const part = asRecord(raw);
  if (!part) return { type: "unknown", raw };
  if (part.type === "text" && typeof part.text === "string") {
    // `cache_control` on a text part is the Anthropic marker that OpenAI-compatible gateways
    // (LiteLLM, OpenRouter) accept and forward; read as a cache marker so it compares as one.
    const { type: _t, text, cache_control: cacheRaw, ...extras } = part;
    const cache = cacheRaw === undefined ? undefined : readCacheMarker(cacheRaw);
    if (cacheRaw !== undefined && cache === undefined) extras.cache_control = cacheRaw;
    return compact({ type: "text" as const, text, cache, extras: nonEmpty(extras) });
  }
  if (
    part.type === "refusal" &&
    typeof part.refusal === "string" &&
    onlyKeys(part, ["type", "refusal"])
  ) {
    return { type: "refusal", text: part.refusal };
  }
  const image = asRecord(part.image_url);
  if (part.type === "image_url" && image && onlyKeys(part, ["type", "image_url"])) {
    if (typeof image.url === "string" && onlyKeys(image, ["url", "detail"])) {
      const detail = image.detail;
      if (detail === undefined || typeof detail === "string") {
        const inline = parseDataUrl(image.url);
        const source = inline
          ? ({ kind: "base64", mediaType: inline.mediaType, data: inline.data } as const)
          : ({ kind: "url", url: image.url } as const);
        return compact({ type: "image" as const, source, detail });
      }
    }
  }
  const audio = asRecord(part.input_audio);
  if (part.type === "input_audio" && audio && onlyKeys(part, ["type", "input_audio"])) {
    if (
      typeof audio.data === "string" &&
      typeof audio.format === "string" &&
      onlyKeys(audio, ["data", "format"])
    ) {
      return { type: "audio", source: { kind: "base64", data: audio.data }, format: audio.format };
    }
  }
  const file = asRecord(part.file);
  if (part.type === "file" && file && onlyKeys(part, ["type", "file"])) {
    const document = readFile(file);
    if (document) return document;
  }
  return { type: "unknown", raw };
}

/** Chat `file` part: exactly one of file_id or file_data, with an optional filename (-> title). */
function readFile(file: JsonRecord): Part | undefined {
  if (!onlyKeys(file, ["file_id", "file_data", "filename"])) return undefined;
  const { file_id: fileId, file_data: fileData, filename } = file;
  if (filename !== undefined && typeof filename !== "string") return undefined;
  if (typeof fileId === "string" && fileData === undefined) {
    return compact({
      type: "document" as const,
      source: { kind: "file-id" as const, fileId },
      title: filename,
    });
  }
  if (typeof fileData === "string" && fileId === undefined) {
    const inline = parseDataUrl(fileData);
    const source = inline
      ? ({ kind: "base64", mediaType: inline.mediaType, data: inline.data } as const)
      : ({ kind: "base64", data: fileData } as const);
    return compact({ type: "document" as const, source, title: filename });
  }
  return undefined;
}

/** `content`: a string is one text part (`""` included); null or absent is no parts. */
export function readChatContent(value: unknown): Part[] | undefined {
  if (value === null) return [];
  if (typeof value === "string") return [{ type: "text", text: value }];
  return asArray(value)?.map(readChatPart);
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
    return {
      part: compact({
        type: "tool-call" as const,
        id: raw.id,
        name: fn.name,
        arguments: fn.arguments,
        signature: signature?.value,
      }),
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

function readMessage(raw: JsonRecord): Message {
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
    else parts.push(...(content ?? []));
  } else {
    parts.push(...(content ?? []));
  }
  if (role === "assistant") {
    const refusal = f.take("refusal", asString);
    if (refusal !== undefined) parts.push({ type: "refusal", text: refusal });
    // An empty tool_calls array is a wire detail gateways add or drop: kept raw in extras.
    const calls = f.take("tool_calls", (v) => {
      const list = asRecords(v);
      return list && list.length > 0 ? list.map(readToolCall) : undefined;
    });
    for (const call of calls ?? []) parts.push(call.part);
    if (calls?.some((c) => !c.exact)) f.keep("tool_calls", raw.tool_calls);
  }
  const extras = f.rest();
  return compact({
    role,
    parts,
    name,
    extras: Object.keys(extras).length > 0 ? extras : undefined,
  });
}

function readTool(raw: JsonRecord): Tool {
  const f = new FieldReader(raw);
  const kind = f.take("type", asString);
  if (kind === "function") {
    const fn = readNested(raw.function, (g) => ({
      name: g.take("name", asString),
      description: g.take("description", asString),
      schema: g.has("parameters") ? g.take("parameters", (v) => v) : undefined,
      strict: g.take("strict", asBoolean),
    }));
    if (fn && fn.value.name !== undefined) {
      f.keep("function", fn.leftover);
      const extras = f.rest();
      return compact({
        kind,
        name: fn.value.name,
        description: fn.value.description,
        schema: fn.value.schema,
        strict: fn.value.strict,
        extras: Object.keys(extras).length > 0 ? extras : undefined,
      });
    }
  }
  // Custom and future tool types keep everything but their type in extras.
  const { type: _t, ...rest } = raw;
  return compact({
    kind: kind ?? "",
    name: typeof raw.name === "string" ? raw.name : "",
    extras: Object.keys(rest).length > 0 ? rest : undefined,
  });
}

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
  return undefined;
}

function readResponseFormat(f: FieldReader): ResponseFormat | undefined {
  const raw = asRecord(f.record.response_format);
  if (raw?.type === "text" || raw?.type === "json_object") {
    if (onlyKeys(raw, ["type"])) {
      f.keep("response_format", undefined);
      return { type: raw.type };
    }
  }
  if (raw?.type === "json_schema" && onlyKeys(raw, ["type", "json_schema"])) {
    const schema = readNested(raw.json_schema, (g) => ({
      name: g.take("name", asString),
      schema: g.has("schema") ? g.take("schema", (v) => v) : undefined,
      strict: g.take("strict", asBoolean),
    }));
    if (schema) {
      f.keep("response_format", schema.leftover && { json_schema: schema.leftover });
      return compact({ type: "json_schema" as const, ...schema.value });
    }
  }
  return f.take("response_format", () => undefined);
}

export function readChatRequest(body: JsonRecord): CanonicalRequest {
  const f = new FieldReader(body);
  const model = f.take("model", asString);
  const messages = f.take("messages", asRecords)?.map(readMessage) ?? [];
  const tools = f.take("tools", asRecords)?.map(readTool) ?? [];
  const toolChoice = f.take("tool_choice", readToolChoice);
  const parallelToolCalls = f.take("parallel_tool_calls", asBoolean);
  // max_tokens and max_completion_tokens name the same limit; when both are sent the
  // second stays in extras so neither value is lost.
  const maxTokens = f.take("max_tokens", asNumber);
  const maxCompletion =
    maxTokens === undefined
      ? f.take("max_completion_tokens", asNumber)
      : f.take("max_completion_tokens", () => undefined);
  const sampling = compact({
    temperature: f.take("temperature", asNumber),
    topP: f.take("top_p", asNumber),
    topK: f.take("top_k", asNumber),
    maxTokens: maxTokens ?? maxCompletion,
    stop: f.take("stop", asStopList),
    seed: f.take("seed", asNumber),
    presencePenalty: f.take("presence_penalty", asNumber),
    frequencyPenalty: f.take("frequency_penalty", asNumber),
    n: f.take("n", asNumber),
  });
  const responseFormat = readResponseFormat(f);
  const effort = f.take("reasoning_effort", asString);
  const streamOptions = f.nested("stream_options", (g) =>
    compact({ includeUsage: g.take("include_usage", asBoolean) }),
  );
  return compact({
    dialect: "openai-chat",
    model,
    system: [],
    messages,
    tools,
    toolChoice,
    parallelToolCalls,
    sampling,
    responseFormat,
    reasoning: effort === undefined ? undefined : { effort },
    metadata: f.take("metadata", asRecord),
    user: f.take("user", asString),
    stream: f.take("stream", asBoolean),
    streamOptions,
    serviceTier: f.take("service_tier", asString),
    extras: f.rest(),
  });
}
