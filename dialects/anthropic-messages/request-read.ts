/**
 * Anthropic Messages request -> canonical.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching (cache_control)
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking (thinking, redacted_thinking)
 * @see https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs (output_config.format, output_format)
 * @see https://docs.anthropic.com/en/docs/build-with-claude/effort (output_config.effort)
 */
import type {
  CacheMarker,
  CanonicalRequest,
  MediaSource,
  Message,
  Part,
  ReasoningConfig,
  ResponseFormat,
  Tool,
  ToolChoice,
} from "../canonical.ts";
import { asBoolean, asNumber, asRecord, asString, type JsonRecord } from "../json.ts";
import {
  asRecords,
  asStringArray,
  compact,
  FieldReader,
  nonEmpty,
  onlyKeys,
  readCacheMarker,
} from "../request-fields.ts";

/** Splits `cache_control` off a block: the rest of the block and the marker (undefined = none or odd). */
function withCache(block: JsonRecord): { rest: JsonRecord; cache?: CacheMarker; ok: boolean } {
  const { cache_control: cacheRaw, ...rest } = block;
  if (cacheRaw === undefined) return { rest, ok: true };
  const cache = readCacheMarker(cacheRaw);
  return { rest, cache, ok: cache !== undefined };
}

function readSource(raw: unknown): MediaSource | undefined {
  const s = asRecord(raw);
  if (!s) return undefined;
  if (
    s.type === "base64" &&
    typeof s.data === "string" &&
    onlyKeys(s, ["type", "media_type", "data"])
  ) {
    const mediaType = s.media_type;
    if (mediaType !== undefined && typeof mediaType !== "string") return undefined;
    return compact({ kind: "base64" as const, mediaType, data: s.data });
  }
  if (s.type === "url" && typeof s.url === "string" && onlyKeys(s, ["type", "url"])) {
    return { kind: "url", url: s.url };
  }
  if (s.type === "file" && typeof s.file_id === "string" && onlyKeys(s, ["type", "file_id"])) {
    return { kind: "file-id", fileId: s.file_id };
  }
  return undefined;
}

/** One content block; a block with a type or key this reader does not know is kept whole. */
/** Set when a block was read typed but carried keys its canonical part cannot hold. */
export interface Lossy {
  lossy: boolean;
}

export function readAnthropicBlock(raw: unknown, seen: Lossy = { lossy: false }): Part {
  const block = asRecord(raw);
  if (!block) return { type: "unknown", raw };
  const { rest, cache, ok } = withCache(block);
  if (!ok) return { type: "unknown", raw };
  switch (rest.type) {
    case "text":
      if (typeof rest.text === "string") {
        const { type: _t, text, ...extras } = rest;
        return compact({
          type: "text" as const,
          text,
          cache,
          extras: Object.keys(extras).length > 0 ? extras : undefined,
        });
      }
      break;
    case "image": {
      const source = readSource(rest.source);
      if (source && onlyKeys(rest, ["type", "source"]))
        return compact({ type: "image" as const, source, cache });
      break;
    }
    case "document": {
      // Text and content-block document sources have no canonical MediaSource: kept raw.
      // `context` and `citations` have no canonical field: the document stays typed and the
      // caller keeps the raw content list beside it (see Lossy).
      const source = readSource(rest.source);
      const title = rest.title;
      if (
        source &&
        onlyKeys(rest, ["type", "source", "title", "context", "citations"]) &&
        (title === undefined || typeof title === "string")
      ) {
        if (rest.context !== undefined || rest.citations !== undefined) seen.lossy = true;
        return compact({ type: "document" as const, source, title, cache });
      }
      break;
    }
    case "tool_use":
      if (
        typeof rest.id === "string" &&
        typeof rest.name === "string" &&
        asRecord(rest.input) &&
        onlyKeys(rest, ["type", "id", "name", "input"])
      ) {
        return compact({
          type: "tool-call" as const,
          id: rest.id,
          name: rest.name,
          arguments: JSON.stringify(rest.input),
          cache,
        });
      }
      break;
    case "tool_result": {
      const content = readToolResultContent(rest.content, seen);
      const isError = rest.is_error;
      if (
        typeof rest.tool_use_id === "string" &&
        content &&
        (isError === undefined || typeof isError === "boolean") &&
        onlyKeys(rest, ["type", "tool_use_id", "content", "is_error"])
      ) {
        return compact({
          type: "tool-result" as const,
          callId: rest.tool_use_id,
          content,
          isError,
          cache,
        });
      }
      break;
    }
    case "thinking":
      if (
        cache === undefined &&
        typeof rest.thinking === "string" &&
        onlyKeys(rest, ["type", "thinking", "signature"]) &&
        (rest.signature === undefined || typeof rest.signature === "string")
      ) {
        return compact({
          type: "thinking" as const,
          text: rest.thinking,
          signature: rest.signature,
        });
      }
      break;
    case "redacted_thinking":
      // The encrypted payload is opaque like a signature; the visible text is empty.
      if (
        cache === undefined &&
        typeof rest.data === "string" &&
        onlyKeys(rest, ["type", "data"])
      ) {
        return { type: "thinking", text: "", signature: rest.data, redacted: true };
      }
      break;
  }
  return { type: "unknown", raw };
}

function readToolResultContent(value: unknown, seen: Lossy): Part[] | undefined {
  if (value === undefined) return [];
  if (typeof value === "string") return [{ type: "text", text: value }];
  return Array.isArray(value) ? value.map((b) => readAnthropicBlock(b, seen)) : undefined;
}

/** `content` or `system`: a string is one text part, an array is blocks. */
function readContent(value: unknown, seen: Lossy): Part[] | undefined {
  if (typeof value === "string") return [{ type: "text", text: value }];
  return Array.isArray(value) ? value.map((b) => readAnthropicBlock(b, seen)) : undefined;
}

function readMessage(raw: JsonRecord): Message {
  const f = new FieldReader(raw);
  const role = f.take("role", (v) => (v === "user" || v === "assistant" ? v : undefined)) ?? "user";
  const seen: Lossy = { lossy: false };
  const parts = f.take("content", (v) => readContent(v, seen)) ?? [];
  if (seen.lossy) f.keep("content", raw.content);
  const extras = f.rest();
  return compact({ role, parts, extras: Object.keys(extras).length > 0 ? extras : undefined });
}

function readTool(raw: JsonRecord): Tool {
  const f = new FieldReader(raw);
  const type = f.take("type", (v) => (v === "custom" ? v : undefined));
  const name = f.take("name", asString) ?? "";
  const cache = f.take("cache_control", readCacheMarker);
  if (type === undefined && f.has("type")) {
    // A server tool (web_search_20250305, bash_20250124, ...): its own type, the rest raw.
    const { type: kind, name: _n, cache_control: _c, ...rest } = raw;
    return compact({ kind: String(kind), name, cache, extras: nonEmpty(rest) });
  }
  const tool = compact({
    kind: "function",
    name,
    description: f.take("description", asString),
    schema: f.has("input_schema") ? f.take("input_schema", (v) => v) : undefined,
    strict: f.take("strict", asBoolean),
    cache,
  });
  // An explicit `type: "custom"` is kept so a same-dialect write repeats it.
  if (type !== undefined) f.keep("type", type);
  // `tool` is compact already: a copy is needed only to add the extras.
  const extras = nonEmpty(f.rest());
  return extras ? { ...tool, extras } : tool;
}

function readToolChoice(f: FieldReader): { choice?: ToolChoice; parallel?: boolean } {
  return (
    f.nested("tool_choice", (g) => {
      const type = g.take("type", asString);
      const name = type === "tool" ? g.take("name", asString) : undefined;
      const disable = g.take("disable_parallel_tool_use", asBoolean);
      let choice: ToolChoice | undefined;
      if (type === "auto" || type === "none") choice = { mode: type };
      else if (type === "any") choice = { mode: "required" };
      else if (type === "tool" && name !== undefined) choice = { mode: "tool", name };
      return choice && compact({ choice, parallel: disable === undefined ? undefined : !disable });
    }) ?? {}
  );
}

function readThinking(f: FieldReader): ReasoningConfig | undefined {
  return f.nested("thinking", (g) => {
    const type = g.take("type", (v): ReasoningConfig["mode"] =>
      v === "enabled" || v === "adaptive" || v === "disabled" ? v : undefined,
    );
    const budgetTokens = type === "enabled" ? g.take("budget_tokens", asNumber) : undefined;
    return type && compact({ mode: type, budgetTokens });
  });
}

/** `{type: "json_schema", schema}` of output_config.format and the older top-level output_format. */
function readOutputFormat(value: unknown): ResponseFormat | undefined {
  const format = asRecord(value);
  if (format?.type === "json_schema" && onlyKeys(format, ["type", "schema"])) {
    return compact({ type: "json_schema" as const, schema: format.schema });
  }
  return undefined;
}

export function readAnthropicRequest(body: JsonRecord): CanonicalRequest {
  const f = new FieldReader(body);
  const model = f.take("model", asString);
  const seen: Lossy = { lossy: false };
  const system = f.take("system", (v) => readContent(v, seen)) ?? [];
  if (seen.lossy) f.keep("system", body.system);
  const messages = f.take("messages", asRecords)?.map(readMessage) ?? [];
  const tools = f.take("tools", asRecords)?.map(readTool) ?? [];
  const { choice: toolChoice, parallel: parallelToolCalls } = readToolChoice(f);
  const sampling = compact({
    temperature: f.take("temperature", asNumber),
    topP: f.take("top_p", asNumber),
    topK: f.take("top_k", asNumber),
    maxTokens: f.take("max_tokens", asNumber),
    stop: f.take("stop_sequences", asStringArray),
  });
  let reasoning = readThinking(f);
  const output = f.nested("output_config", (g) =>
    nonEmpty({ effort: g.take("effort", asString), format: g.take("format", readOutputFormat) }),
  );
  if (output?.effort !== undefined) reasoning = { ...reasoning, effort: output.effort };
  let responseFormat = output?.format;
  // output_format is the older spelling; when both are sent the second stays raw in extras.
  if (responseFormat === undefined) responseFormat = f.take("output_format", readOutputFormat);
  const user = f.nested("metadata", (g) => g.take("user_id", asString));
  return compact({
    dialect: "anthropic-messages",
    model,
    system,
    messages,
    tools,
    toolChoice,
    parallelToolCalls,
    sampling,
    responseFormat,
    reasoning,
    user,
    stream: f.take("stream", asBoolean),
    serviceTier: f.take("service_tier", asString),
    cache: f.take("cache_control", readCacheMarker),
    extras: f.rest(),
  });
}
