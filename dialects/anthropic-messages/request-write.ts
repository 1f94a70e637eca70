/**
 * Canonical -> Anthropic Messages request body.
 * @see https://docs.anthropic.com/en/api/messages
 *
 * What Anthropic cannot express is left out (the lens's no-equivalent table names each):
 * seed, penalties, n, json_object format, response-format name/strict, metadata other than
 * user_id, stream_options, reasoning summary, audio parts, `reasoning` text without a
 * signature, an allowed tool set (other than one tool that must be called). System and developer messages are lifted into `system`, in order. A replayed
 * refusal is what the assistant said: Messages has no refusal block, so it goes as text.
 */
import type {
  CacheMarker,
  CanonicalRequest,
  MediaSource,
  Message,
  Part,
  Tool,
  ToolChoice,
} from "../canonical.ts";
import { CACHE_MARKER } from "../field-table.ts";
import { writeValueRows } from "../field-walk.ts";
import type { JsonRecord } from "../json.ts";
import { isPlainText } from "../openai-chat/request-write.ts";
import {
  argumentsObject,
  compact,
  mergeExtras,
  nonEmpty,
  writtenWithExtras,
} from "../request-fields.ts";
import { toolChoiceMeaning } from "../tool-choice.ts";
import { ANTHROPIC_FIELDS } from "./fields.ts";
import { writeMcpServers } from "./mcp-servers.ts";

function cacheControl(cache: CacheMarker | undefined): unknown {
  return cache === undefined ? undefined : CACHE_MARKER.write(cache);
}

function writeSource(source: MediaSource): JsonRecord {
  switch (source.kind) {
    case "base64":
      return compact({ type: "base64", media_type: source.mediaType, data: source.data });
    case "url":
      return { type: "url", url: source.url };
    case "file-id":
      return { type: "file", file_id: source.fileId };
    case "text":
      return compact({ type: "text", media_type: source.mediaType, data: source.data });
  }
}

/**
 * Tool-call arguments go out as the `input` object. Empty arguments are `{}`; a string that
 * is not a JSON object is written as it is, so the mismatch stays visible (Anthropic rejects it).
 */
function toolInput(args: string): unknown {
  return argumentsObject(args) ?? args;
}

export function writeAnthropicBlock(part: Part, same: boolean): unknown {
  return writtenWithExtras(blockBody(part, same), part, same);
}

function blockBody(part: Part, same: boolean): unknown {
  switch (part.type) {
    case "text":
      return compact({
        ...(same ? part.extras : undefined),
        type: "text",
        text: part.text,
        cache_control: cacheControl(part.cache),
      });
    case "image":
      return compact({
        type: "image",
        source: writeSource(part.source),
        cache_control: cacheControl(part.cache),
      });
    case "document":
      return compact({
        type: "document",
        source: writeSource(part.source),
        title: part.title,
        cache_control: cacheControl(part.cache),
      });
    case "tool-call":
      return compact({
        type: "tool_use",
        id: part.id,
        name: part.name,
        input: toolInput(part.arguments),
        cache_control: cacheControl(part.cache),
      });
    case "tool-result":
      return compact({
        type: "tool_result",
        tool_use_id: part.callId,
        content: part.content.length > 0 ? writeContent(part.content, same) : undefined,
        is_error: part.isError,
        cache_control: cacheControl(part.cache),
      });
    case "refusal":
      return { type: "text", text: part.text };
    case "thinking":
      return part.redacted
        ? { type: "redacted_thinking", data: part.signature ?? "" }
        : compact({ type: "thinking", thinking: part.text, signature: part.signature });
    case "unknown":
      return same ? part.raw : undefined;
    default:
      return undefined;
  }
}

/** A string when the content is one plain text part, else blocks. */
function writeContent(parts: Part[], same: boolean): unknown {
  // Parts the dialect cannot carry are left out first, so what remains decides the form.
  const kept: Part[] = [];
  const written: unknown[] = [];
  for (const p of parts) {
    const w = writeAnthropicBlock(p, same);
    if (w === undefined) continue;
    kept.push(p);
    written.push(w);
  }
  const only = kept[0];
  if (kept.length === 1 && only && isPlainText(only, same, true)) return only.text;
  return written;
}

/**
 * Anthropic has two roles. Tool messages become user turns of tool_result blocks, and
 * consecutive tool messages share one user turn (all results of one assistant turn must
 * arrive together).
 */
function writeMessages(messages: Message[], same: boolean): JsonRecord[] {
  const out: JsonRecord[] = [];
  let toolParts: Part[] | undefined;
  for (const message of messages) {
    if (message.role === "system" || message.role === "developer") continue;
    if (message.role === "tool") {
      if (toolParts) {
        toolParts.push(...message.parts);
        continue;
      }
      toolParts = [...message.parts];
      out.push({ role: "user", parts: toolParts });
      continue;
    }
    toolParts = undefined;
    out.push({
      role: message.role,
      parts: message.parts,
      extras: same ? message.extras : undefined,
    });
  }
  return out.map((m) =>
    mergeExtras(
      { role: m.role, content: writeContent(m.parts as Part[], same) },
      m.extras as JsonRecord | undefined,
    ),
  );
}

function writeTool(tool: Tool, same: boolean): JsonRecord | undefined {
  if (tool.kind !== "function") {
    if (!same) return undefined;
    return compact({
      type: tool.kind,
      name: tool.name === "" ? undefined : tool.name,
      cache_control: cacheControl(tool.cache),
      ...tool.extras,
    });
  }
  const body = compact({
    name: tool.name,
    description: tool.description,
    input_schema: tool.schema,
    strict: tool.strict,
    cache_control: cacheControl(tool.cache),
  });
  return same ? mergeExtras(body, tool.extras) : body;
}

/**
 * Messages has auto, any, tool and none: no allowed subset. An allowed set of one tool that
 * must be called is that tool forced (the same meaning); any other set cannot be written.
 * @see https://docs.anthropic.com/en/api/messages#body-tool-choice
 */
function expressible(
  choice: ToolChoice | undefined,
): Exclude<ToolChoice, { mode: "allowed" }> | undefined {
  if (choice?.mode !== "allowed") return choice;
  const meaning = toolChoiceMeaning(choice);
  return meaning.mode === "allowed" ? undefined : meaning;
}

function writeToolChoice(request: CanonicalRequest): JsonRecord | undefined {
  const choice = expressible(request.toolChoice);
  const disable = request.parallelToolCalls === undefined ? undefined : !request.parallelToolCalls;
  if (!choice)
    return disable === undefined ? undefined : { type: "auto", disable_parallel_tool_use: disable };
  const base =
    choice.mode === "tool"
      ? { type: "tool", name: choice.name }
      : { type: choice.mode === "required" ? "any" : choice.mode };
  return compact({
    ...base,
    disable_parallel_tool_use: choice.mode === "none" ? undefined : disable,
  });
}

function writeThinking(request: CanonicalRequest): JsonRecord | undefined {
  const r = request.reasoning;
  if (!r?.mode) return undefined;
  return r.mode === "enabled"
    ? compact({ type: "enabled", budget_tokens: r.budgetTokens })
    : { type: r.mode };
}

export function writeAnthropicRequest(request: CanonicalRequest, same: boolean): JsonRecord {
  // System and developer messages have no place in `messages`: lifted into `system`, in order.
  const lifted = request.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .flatMap((m) => m.parts);
  const system = [...request.system, ...lifted];
  const tools = request.tools.map((t) => writeTool(t, same)).filter((t) => t !== undefined);
  const format = request.responseFormat;
  const body: JsonRecord = compact({
    system: system.length > 0 ? writeContent(system, same) : undefined,
    messages: writeMessages(request.messages, same),
    tools: tools.length > 0 ? tools : undefined,
    tool_choice: writeToolChoice(request),
    thinking: writeThinking(request),
    output_config: nonEmpty({
      effort: request.reasoning?.effort,
      format:
        format?.type === "json_schema"
          ? writtenWithExtras(compact({ type: "json_schema", schema: format.schema }), format, same)
          : undefined,
    }),
    metadata: request.user === undefined ? undefined : { user_id: request.user },
    mcp_servers: request.mcpServers && writeMcpServers(request.mcpServers, same),
  });
  return writeValueRows(body, request, ANTHROPIC_FIELDS.rows, same);
}
