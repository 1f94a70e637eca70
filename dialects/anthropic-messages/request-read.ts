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
import { BodyReader, readValueRows } from "../field-walk.ts";
import { asBoolean, asNumber, asRecord, asString, type JsonRecord } from "../json.ts";
import {
  asRecords,
  FieldReader,
  onlyKeys,
  otherKeys,
  readCacheMarker,
  readEach,
  withExtras,
} from "../request-fields.ts";
import { ANTHROPIC_FIELDS } from "./fields.ts";
import { readMcpServers } from "./mcp-servers.ts";

/**
 * Canonical objects are built key by key in their canonical order, an optional key set only
 * when it has a value (no literal with holes then compacted, no rest-destructuring): this
 * reader runs for every side of every exchange judged (docs/dialects-requests.md,
 * "Performance").
 */

/** `cache_control` of a block: absent (undefined), a marker, or `false` when it does not parse. */
function blockCache(block: JsonRecord): CacheMarker | false | undefined {
  const raw = block.cache_control;
  if (raw === undefined) return undefined;
  return readCacheMarker(raw) ?? false;
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
    if (mediaType === undefined) return { kind: "base64", data: s.data };
    if (typeof mediaType !== "string") return undefined;
    return { kind: "base64", mediaType, data: s.data };
  }
  if (s.type === "url" && typeof s.url === "string" && onlyKeys(s, ["type", "url"])) {
    return { kind: "url", url: s.url };
  }
  if (s.type === "file" && typeof s.file_id === "string" && onlyKeys(s, ["type", "file_id"])) {
    return { kind: "file-id", fileId: s.file_id };
  }
  // A plain-text document: `{"type": "text", "media_type": "text/plain", "data": "..."}`
  // (https://docs.anthropic.com/en/docs/build-with-claude/citations#plain-text-documents).
  if (
    s.type === "text" &&
    typeof s.data === "string" &&
    onlyKeys(s, ["type", "media_type", "data"])
  ) {
    const mediaType = s.media_type;
    if (mediaType === undefined) return { kind: "text", data: s.data };
    if (typeof mediaType !== "string") return undefined;
    return { kind: "text", mediaType, data: s.data };
  }
  return undefined;
}

/** Set when a block was read typed but carried keys its canonical part cannot hold. */
export interface Lossy {
  lossy: boolean;
}

const TEXT_KEYS = ["type", "text", "cache_control"];
/** Each block's keys in the Messages reference; any other is kept as the part's extras. */
const IMAGE_KEYS = ["type", "source", "cache_control"];
const DOCUMENT_KEYS = ["type", "source", "title", "context", "citations", "cache_control"];
const TOOL_USE_KEYS = ["type", "id", "name", "input", "cache_control"];
const TOOL_RESULT_KEYS = ["type", "tool_use_id", "content", "is_error", "cache_control"];
const THINKING_KEYS = ["type", "thinking", "signature"];

/** One content block; a block with a type or key this reader does not know is kept whole. */
export function readAnthropicBlock(raw: unknown, seen: Lossy = { lossy: false }): Part {
  const block = asRecord(raw);
  if (!block) return { type: "unknown", raw };
  const cache = blockCache(block);
  if (cache === false) return { type: "unknown", raw };
  switch (block.type) {
    case "text":
      if (typeof block.text === "string") {
        const part: Part & { type: "text" } = { type: "text", text: block.text };
        if (cache) part.cache = cache;
        const extras = otherKeys(block, TEXT_KEYS);
        if (extras) part.extras = extras;
        return part;
      }
      break;
    case "image": {
      const source = readSource(block.source);
      if (source && source.kind !== "text") {
        const part: Part & { type: "image" } = { type: "image", source };
        if (cache) part.cache = cache;
        return withExtras(part, block, IMAGE_KEYS);
      }
      break;
    }
    case "document": {
      // Content-block document sources have no canonical MediaSource: kept raw.
      // `context` and `citations` have no canonical field: the document stays typed and the
      // caller keeps the raw content list beside it (see Lossy).
      const source = readSource(block.source);
      const title = block.title;
      if (source && (title === undefined || typeof title === "string")) {
        if (block.context !== undefined || block.citations !== undefined) seen.lossy = true;
        const part: Part & { type: "document" } = { type: "document", source };
        if (title !== undefined) part.title = title;
        if (cache) part.cache = cache;
        return withExtras(part, block, DOCUMENT_KEYS);
      }
      break;
    }
    case "tool_use":
      if (typeof block.id === "string" && typeof block.name === "string" && asRecord(block.input)) {
        const part: Part & { type: "tool-call" } = {
          type: "tool-call",
          id: block.id,
          name: block.name,
          arguments: JSON.stringify(block.input),
        };
        if (cache) part.cache = cache;
        return withExtras(part, block, TOOL_USE_KEYS);
      }
      break;
    case "tool_result": {
      const content = readToolResultContent(block.content, seen);
      const isError = block.is_error;
      if (
        typeof block.tool_use_id === "string" &&
        content &&
        (isError === undefined || typeof isError === "boolean")
      ) {
        const part: Part & { type: "tool-result" } = {
          type: "tool-result",
          callId: block.tool_use_id,
          content,
        };
        if (isError !== undefined) part.isError = isError;
        if (cache) part.cache = cache;
        return withExtras(part, block, TOOL_RESULT_KEYS);
      }
      break;
    }
    case "thinking":
      if (
        cache === undefined &&
        typeof block.thinking === "string" &&
        (block.signature === undefined || typeof block.signature === "string")
      ) {
        const part: Part & { type: "thinking" } =
          block.signature === undefined
            ? { type: "thinking", text: block.thinking }
            : { type: "thinking", text: block.thinking, signature: block.signature };
        return withExtras(part, block, THINKING_KEYS);
      }
      break;
    case "redacted_thinking":
      // The encrypted payload is opaque like a signature; the visible text is empty.
      if (cache === undefined && typeof block.data === "string") {
        const part: Part & { type: "thinking" } = {
          type: "thinking",
          text: "",
          signature: block.data,
          redacted: true,
        };
        return withExtras(part, block, ["type", "data"]);
      }
      break;
  }
  return { type: "unknown", raw };
}

function readBlocks(list: unknown[], seen: Lossy): Part[] {
  const parts: Part[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) parts[i] = readAnthropicBlock(list[i], seen);
  return parts;
}

function readToolResultContent(value: unknown, seen: Lossy): Part[] | undefined {
  if (value === undefined) return [];
  if (typeof value === "string") return [{ type: "text", text: value }];
  return Array.isArray(value) ? readBlocks(value, seen) : undefined;
}

/** `content` or `system`: a string is one text part, an array is blocks. */
function readContent(value: unknown, seen: Lossy): Part[] | undefined {
  if (typeof value === "string") return [{ type: "text", text: value }];
  return Array.isArray(value) ? readBlocks(value, seen) : undefined;
}

const MESSAGE_KEYS = ["role", "content"];

function readMessage(raw: JsonRecord): Message {
  // The usual message is {role, content} with a valid role: read without a FieldReader.
  const role = raw.role;
  if ((role === "user" || role === "assistant") && onlyKeys(raw, MESSAGE_KEYS)) {
    const seen: Lossy = { lossy: false };
    const content = raw.content;
    if (content === undefined) return { role, parts: [] };
    const parts = readContent(content, seen);
    if (parts !== undefined && !seen.lossy) return { role, parts };
  }
  return readOddMessage(raw);
}

/** A message with other keys, an odd role or content, or lossy blocks. */
function readOddMessage(raw: JsonRecord): Message {
  const f = new FieldReader(raw);
  const role = f.take("role", (v) => (v === "user" || v === "assistant" ? v : undefined)) ?? "user";
  const seen: Lossy = { lossy: false };
  const parts = f.take("content", (v) => readContent(v, seen)) ?? [];
  if (seen.lossy) f.keep("content", raw.content);
  const extras = f.leftover();
  return extras === undefined ? { role, parts } : { role, parts, extras };
}

function readTool(raw: JsonRecord): Tool {
  const f = new FieldReader(raw);
  const type = f.take("type", (v) => (v === "custom" ? v : undefined));
  const name = f.take("name", asString) ?? "";
  const cache = f.take("cache_control", readCacheMarker);
  if (type === undefined && f.has("type")) {
    // A server tool (web_search_20250305, bash_20250124, ...): its own type, the rest raw.
    const server: Tool = { kind: String(raw.type), name };
    if (cache !== undefined) server.cache = cache;
    const extras = otherKeys(raw, SERVER_TOOL_KEYS);
    if (extras !== undefined) server.extras = extras;
    return server;
  }
  const tool: Tool = { kind: "function", name };
  f.takeInto(tool, "description", "description", asString);
  const schema = f.raw("input_schema");
  if (schema !== undefined) tool.schema = schema;
  f.takeInto(tool, "strict", "strict", asBoolean);
  if (cache !== undefined) tool.cache = cache;
  // An explicit `type: "custom"` is kept so a same-dialect write repeats it.
  if (type !== undefined) f.keep("type", type);
  const extras = f.leftover();
  if (extras !== undefined) tool.extras = extras;
  return tool;
}

const SERVER_TOOL_KEYS = ["type", "name", "cache_control"];

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
      if (choice === undefined) return undefined;
      return disable === undefined ? { choice } : { choice, parallel: !disable };
    }) ?? {}
  );
}

function readThinking(f: FieldReader): ReasoningConfig | undefined {
  return f.nested("thinking", (g) => {
    const type = g.take("type", (v): ReasoningConfig["mode"] =>
      v === "enabled" || v === "adaptive" || v === "disabled" ? v : undefined,
    );
    if (type === undefined) return undefined;
    const budgetTokens = type === "enabled" ? g.take("budget_tokens", asNumber) : undefined;
    return budgetTokens === undefined ? { mode: type } : { mode: type, budgetTokens };
  });
}

/** `{type: "json_schema", schema}` of output_config.format and the older top-level output_format. */
function readOutputFormat(value: unknown): ResponseFormat | undefined {
  const format = asRecord(value);
  if (format?.type === "json_schema") {
    const read: ResponseFormat =
      format.schema === undefined
        ? { type: "json_schema" }
        : { type: "json_schema", schema: format.schema };
    return withExtras(read, format, ["type", "schema"]);
  }
  return undefined;
}

function readOutputConfig(
  g: FieldReader,
): { effort?: string; format?: ResponseFormat } | undefined {
  const effort = g.take("effort", asString);
  const format = g.take("format", readOutputFormat);
  if (effort === undefined) return format === undefined ? undefined : { format };
  return format === undefined ? { effort } : { effort, format };
}

export function readAnthropicRequest(raw: JsonRecord): CanonicalRequest {
  const body = new BodyReader(raw);
  const f = body.root;
  const seen: Lossy = { lossy: false };
  const system = f.take("system", (v) => readContent(v, seen)) ?? [];
  if (seen.lossy) f.keep("system", raw.system);
  const messageList = f.take("messages", asRecords);
  const out: CanonicalRequest = {
    dialect: "anthropic-messages",
    system,
    messages: messageList === undefined ? [] : readEach(messageList, readMessage),
    tools: f.take("tools", asRecords)?.map(readTool) ?? [],
    sampling: {},
    extras: {},
  };
  const { choice: toolChoice, parallel: parallelToolCalls } = readToolChoice(f);
  if (toolChoice !== undefined) out.toolChoice = toolChoice;
  if (parallelToolCalls !== undefined) out.parallelToolCalls = parallelToolCalls;
  let reasoning = readThinking(f);
  const output = f.nested("output_config", readOutputConfig);
  if (output?.effort !== undefined) reasoning = { ...reasoning, effort: output.effort };
  if (reasoning !== undefined) out.reasoning = reasoning;
  // output_format is the older spelling; when both are sent the second stays raw in extras.
  const responseFormat = output?.format ?? f.take("output_format", readOutputFormat);
  if (responseFormat !== undefined) out.responseFormat = responseFormat;
  const user = f.nested("metadata", (g) => g.take("user_id", asString));
  if (user !== undefined) out.user = user;
  f.takeInto(out, "mcpServers", "mcp_servers", readMcpServers);
  readValueRows(body, out, ANTHROPIC_FIELDS.rows);
  out.extras = body.finish();
  return out;
}
