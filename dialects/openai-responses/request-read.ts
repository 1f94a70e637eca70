/**
 * OpenAI Responses request -> canonical.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 * @see https://platform.openai.com/docs/guides/function-calling?api-mode=responses
 * @see https://platform.openai.com/docs/guides/reasoning (reasoning items, encrypted_content)
 *
 * Every input item becomes one canonical message, so item order and item ids survive:
 * a message item keeps its role; a function_call is an assistant message with one
 * tool-call part; a function_call_output is a tool message with one tool-result part; a
 * reasoning item is an assistant message of reasoning (summary) and thinking (content,
 * encrypted_content) parts. Item keys beside those (`id`, `status`, the optional message
 * `type`) stay in message.extras; an item type this reader does not know is one unknown part.
 */
import type {
  CanonicalRequest,
  McpServer,
  Message,
  Part,
  ReasoningConfig,
  ResponseFormat,
  Role,
  Tool,
  ToolChoice,
} from "../canonical.ts";
import { BodyReader, readValueRows } from "../field-walk.ts";
import { asArray, asBoolean, asRecord, asString, type JsonRecord } from "../json.ts";
import {
  asRecords,
  compact,
  FieldReader,
  nonEmpty,
  onlyKeys,
  parseDataUrl,
  readNested,
  withExtras,
} from "../request-fields.ts";
import { LOGPROBS_INCLUDE, RESPONSES_FIELDS } from "./fields.ts";
import { readMcpTool } from "./mcp-tools.ts";

const MESSAGE_ROLES = ["system", "developer", "user", "assistant"] as const satisfies Role[];

function readSourceUrl(url: string) {
  const inline = parseDataUrl(url);
  return inline
    ? ({ kind: "base64", mediaType: inline.mediaType, data: inline.data } as const)
    : ({ kind: "url", url } as const);
}

/** One content part of a message item; an unknown shape is kept whole. */
export function readResponsesPart(raw: unknown): Part {
  const part = asRecord(raw);
  if (!part) return { type: "unknown", raw };
  const t = part.type;
  if ((t === "input_text" || t === "output_text") && typeof part.text === "string") {
    const { type: _t, text, ...extras } = part;
    return compact({ type: "text" as const, text, extras: nonEmpty(extras) });
  }
  // Keys beside a part's own are kept as its extras, never void it (withExtras).
  const typed = readTypedPart(part, t);
  if (typed) return withExtras(typed.part, part, typed.keys);
  return { type: "unknown", raw };
}

const IMAGE_KEYS = ["type", "image_url", "file_id", "detail"];
const FILE_KEYS = ["type", "file_id", "file_data", "file_url", "filename"];

/** A part of a type other than text read by its own keys, with the keys it has. */
function readTypedPart(
  part: JsonRecord,
  t: unknown,
): { part: TypedPart; keys: readonly string[] } | undefined {
  const read = typedPart(part, t);
  if (!read) return undefined;
  const keys =
    read.type === "refusal"
      ? ["type", "refusal"]
      : read.type === "image"
        ? IMAGE_KEYS
        : read.type === "document"
          ? FILE_KEYS
          : ["type", "input_audio"];
  return { part: read, keys };
}

type TypedPart = Extract<Part, { type: "refusal" | "image" | "document" | "audio" }>;

function typedPart(part: JsonRecord, t: unknown): TypedPart | undefined {
  if (t === "refusal" && typeof part.refusal === "string") {
    return { type: "refusal", text: part.refusal };
  }
  if (t === "input_image") {
    const detail = part.detail;
    if (detail === undefined || typeof detail === "string") {
      if (typeof part.image_url === "string" && part.file_id === undefined) {
        return compact({ type: "image" as const, source: readSourceUrl(part.image_url), detail });
      }
      if (typeof part.file_id === "string" && part.image_url === undefined) {
        return compact({
          type: "image" as const,
          source: { kind: "file-id" as const, fileId: part.file_id },
          detail,
        });
      }
    }
  }
  if (t === "input_file") {
    const title = part.filename;
    const sources = [part.file_id, part.file_data, part.file_url].filter((s) => s !== undefined);
    if ((title === undefined || typeof title === "string") && sources.length === 1) {
      if (typeof part.file_id === "string") {
        return compact({
          type: "document" as const,
          source: { kind: "file-id" as const, fileId: part.file_id },
          title,
        });
      }
      if (typeof part.file_url === "string") {
        return compact({
          type: "document" as const,
          source: { kind: "url" as const, url: part.file_url },
          title,
        });
      }
      if (typeof part.file_data === "string") {
        const inline = parseDataUrl(part.file_data);
        const source = inline
          ? ({ kind: "base64", mediaType: inline.mediaType, data: inline.data } as const)
          : ({ kind: "base64", data: part.file_data } as const);
        return compact({ type: "document" as const, source, title });
      }
    }
  }
  const audio = asRecord(part.input_audio);
  if (t === "input_audio" && audio) {
    if (
      typeof audio.data === "string" &&
      typeof audio.format === "string" &&
      onlyKeys(audio, ["data", "format"])
    ) {
      return { type: "audio", source: { kind: "base64", data: audio.data }, format: audio.format };
    }
  }
  return undefined;
}

function readContent(value: unknown): Part[] | undefined {
  if (typeof value === "string") return [{ type: "text", text: value }];
  return Array.isArray(value) ? value.map(readResponsesPart) : undefined;
}

function message(role: Role, parts: Part[], f: FieldReader): Message {
  return compact({ role, parts, extras: nonEmpty(f.rest()) });
}

/** The reasoning item's summary and content lists, or undefined when either is odd. */
function readReasoningParts(item: FieldReader): Part[] | undefined {
  const summary = item.take("summary", asRecords);
  const content = item.has("content") ? item.take("content", asRecords) : [];
  if (!summary || !content) return undefined;
  const parts: Part[] = [];
  for (const entry of summary) {
    if (
      entry.type !== "summary_text" ||
      typeof entry.text !== "string" ||
      !onlyKeys(entry, ["type", "text"])
    ) {
      return undefined;
    }
    parts.push({ type: "reasoning", text: entry.text });
  }
  for (const entry of content) {
    if (
      entry.type !== "reasoning_text" ||
      typeof entry.text !== "string" ||
      !onlyKeys(entry, ["type", "text"])
    ) {
      return undefined;
    }
    parts.push({ type: "thinking", text: entry.text });
  }
  const encrypted = item.take("encrypted_content", asString);
  if (encrypted !== undefined)
    parts.push({ type: "thinking", text: "", signature: encrypted, redacted: true });
  return parts;
}

function readItem(raw: JsonRecord): Message {
  const f = new FieldReader(raw);
  const type = raw.type;
  if (type === undefined || type === "message") {
    f.keep("type", type);
    const role = f.take("role", (v) =>
      (MESSAGE_ROLES as readonly unknown[]).includes(v) ? (v as Role) : undefined,
    );
    const parts = f.take("content", readContent);
    if (role && parts) return message(role, parts, f);
  }
  if (
    type === "function_call" &&
    typeof raw.call_id === "string" &&
    typeof raw.name === "string" &&
    typeof raw.arguments === "string"
  ) {
    f.keep("type", undefined);
    const id = f.take("call_id", asString) ?? "";
    const name = f.take("name", asString) ?? "";
    const args = f.take("arguments", asString) ?? "";
    return message("assistant", [{ type: "tool-call", id, name, arguments: args }], f);
  }
  if (type === "function_call_output" && typeof raw.call_id === "string") {
    const content = readContent(raw.output);
    if (content) {
      f.keep("type", undefined);
      f.keep("output", undefined);
      const callId = f.take("call_id", asString) ?? "";
      return message("tool", [{ type: "tool-result", callId, content }], f);
    }
  }
  if (type === "reasoning") {
    const g = new FieldReader(raw);
    g.keep("type", type);
    const parts = readReasoningParts(g);
    if (parts) return message("assistant", parts, g);
  }
  // Built-in tool calls, item references, and future item types: kept whole.
  const role = typeof type === "string" && type.endsWith("_output") ? "tool" : "assistant";
  return compact({
    role,
    parts: [{ type: "unknown" as const, raw }],
    extras: typeof type === "string" ? { type } : undefined,
  });
}

function readTool(raw: JsonRecord): Tool {
  if (raw.type === "function" && typeof raw.name === "string") {
    const f = new FieldReader(raw);
    f.keep("type", undefined);
    return compact({
      kind: "function",
      name: f.take("name", asString) ?? "",
      description: f.take("description", asString),
      schema: f.has("parameters") ? f.take("parameters", (v) => v) : undefined,
      strict: f.take("strict", asBoolean),
      extras: nonEmpty(f.rest()),
    });
  }
  // Built-in tools (web_search, file_search, mcp, ...): their own type, everything else raw.
  const { type, name, ...rest } = raw;
  return compact({
    kind: typeof type === "string" ? type : "",
    name: typeof name === "string" ? name : "",
    extras: nonEmpty(typeof name === "string" ? rest : { ...rest, name }),
  });
}

/** Function and built-in tools into `tools`; remote MCP tools into `mcpServers`. */
function readTools(list: JsonRecord[], out: CanonicalRequest): void {
  const servers: McpServer[] = [];
  for (const raw of list) {
    const server = readMcpTool(raw);
    if (server) servers.push(server);
    else out.tools.push(readTool(raw));
  }
  if (servers.length > 0) out.mcpServers = servers;
}

/**
 * `{type: "allowed_tools", mode, tools: [{type: "function", name}]}`; a set naming a built-in
 * or MCP tool has no canonical form and stays raw.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tool_choice
 */
function readAllowedTools(choice: JsonRecord): ToolChoice | undefined {
  if (!onlyKeys(choice, ["type", "mode", "tools"])) return undefined;
  const within = choice.mode;
  if (within !== "auto" && within !== "required") return undefined;
  const names: string[] = [];
  for (const tool of asArray(choice.tools) ?? [undefined]) {
    const entry = asRecord(tool);
    if (entry?.type !== "function" || typeof entry.name !== "string") return undefined;
    if (!onlyKeys(entry, ["type", "name"])) return undefined;
    names.push(entry.name);
  }
  // An empty set allows nothing: not a choice the canonical form holds, so it stays raw.
  return names.length > 0 ? { mode: "allowed", within, names } : undefined;
}

function readToolChoice(value: unknown): ToolChoice | undefined {
  if (value === "auto" || value === "none" || value === "required") return { mode: value };
  const choice = asRecord(value);
  if (choice?.type === "allowed_tools") return readAllowedTools(choice);
  // A named function, or a named custom tool (`{type: "custom", name}`), forced alike.
  if (
    (choice?.type === "function" || choice?.type === "custom") &&
    typeof choice.name === "string" &&
    onlyKeys(choice, ["type", "name"])
  ) {
    return { mode: "tool", name: choice.name };
  }
  return undefined;
}

function readFormat(value: unknown): { format: ResponseFormat; leftover?: JsonRecord } | undefined {
  const raw = asRecord(value);
  // A key beside the format's own does not void it: kept as the format's extras (withExtras).
  if (raw?.type === "text" || raw?.type === "json_object") {
    return { format: withExtras<ResponseFormat>({ type: raw.type }, raw, ["type"]) };
  }
  if (raw?.type !== "json_schema") return undefined;
  const parsed = readNested(raw, (g) => {
    g.keep("type", undefined);
    return compact({
      type: "json_schema" as const,
      name: g.take("name", asString),
      schema: g.has("schema") ? g.take("schema", (v) => v) : undefined,
      strict: g.take("strict", asBoolean),
    });
  });
  return parsed && { format: parsed.value, leftover: parsed.leftover };
}

/**
 * `include: ["message.output_text.logprobs"]` is the canonical `logprobs: true`. Included
 * with other entries, the list stays raw in extras as sent (written back whole to Responses),
 * and the flag is read from it too.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-include
 */
function readLogprobsInclude(f: FieldReader, out: CanonicalRequest): void {
  const include = f.record.include;
  if (!Array.isArray(include) || !include.includes(LOGPROBS_INCLUDE)) return;
  out.logprobs = true;
  if (include.length === 1) f.take("include", () => true);
}

export function readResponsesRequest(raw: JsonRecord): CanonicalRequest {
  const body = new BodyReader(raw);
  const f = body.root;
  const input = f.take("input", (v) =>
    typeof v === "string"
      ? [{ role: "user" as const, parts: [{ type: "text" as const, text: v }] }]
      : asRecords(v)?.map(readItem),
  );
  const instructions = f.take("instructions", asString);
  const out: CanonicalRequest = {
    dialect: "openai-responses",
    system: instructions === undefined ? [] : [{ type: "text", text: instructions }],
    messages: input ?? [],
    tools: [],
    sampling: {},
    extras: {},
  };
  readTools(f.take("tools", asRecords) ?? [], out);
  const text = f.nested("text", (g) => {
    const format = readFormat(g.record.format);
    if (format) g.keep("format", format.leftover);
    return nonEmpty({ format: format?.format, verbosity: g.take("verbosity", asString) });
  });
  if (text?.format !== undefined) out.responseFormat = text.format;
  if (text?.verbosity !== undefined) out.verbosity = text.verbosity;
  const reasoning = f.nested("reasoning", (g) =>
    nonEmpty<ReasoningConfig>({
      effort: g.take("effort", asString),
      summary: g.take("summary", asString),
    }),
  );
  if (reasoning !== undefined) out.reasoning = reasoning;
  f.takeInto(out, "toolChoice", "tool_choice", readToolChoice);
  readLogprobsInclude(f, out);
  readValueRows(body, out, RESPONSES_FIELDS.rows);
  out.extras = body.finish();
  return out;
}
