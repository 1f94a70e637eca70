/**
 * Canonical -> OpenAI Responses request body.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 *
 * What Responses cannot express is left out (the lens's no-equivalent table names each):
 * stop sequences, seed, penalties, n, top_k, stream_options.include_usage, Anthropic thinking
 * budgets, cache markers, tool-result isError, tool-call signatures. A thinking switch with
 * no effort level goes as the effort that means the same (EFFORT_OF_MODE in the Chat
 * writer). Several system parts are joined into `instructions` with a blank line.
 */
import type { CanonicalRequest, Message, Part, Tool, ToolChoice } from "../canonical.ts";
import { writeValueRows } from "../field-walk.ts";
import { isRecord, type JsonRecord } from "../json.ts";
import { isPlainText, openaiEffort } from "../openai-chat/request-write.ts";
import {
  compact,
  inlineSource,
  mergeExtras,
  nonEmpty,
  toDataUrl,
  writtenWithExtras,
} from "../request-fields.ts";
import { LOGPROBS_INCLUDE, RESPONSES_FIELDS } from "./fields.ts";
import { writeMcpTool } from "./mcp-tools.ts";

function writePart(part: Part, role: string, same: boolean): unknown {
  return writtenWithExtras(partBody(part, role, same), part, same);
}

function partBody(part: Part, role: string, same: boolean): unknown {
  switch (part.type) {
    case "text":
      return {
        ...(same ? part.extras : undefined),
        type: role === "assistant" ? "output_text" : "input_text",
        text: part.text,
      };
    case "refusal":
      return { type: "refusal", refusal: part.text };
    case "image": {
      const s = part.source;
      const where =
        s.kind === "file-id"
          ? { file_id: s.fileId }
          : { image_url: s.kind === "url" ? s.url : toDataUrl(s.mediaType ?? "", s.data) };
      return compact({ type: "input_image", ...where, detail: part.detail });
    }
    case "document": {
      const s = inlineSource(part.source);
      const where =
        s.kind === "file-id"
          ? { file_id: s.fileId }
          : s.kind === "url"
            ? { file_url: s.url }
            : { file_data: s.mediaType === undefined ? s.data : toDataUrl(s.mediaType, s.data) };
      return compact({ type: "input_file", ...where, filename: part.title });
    }
    case "audio":
      return part.source.kind === "base64"
        ? { type: "input_audio", input_audio: { data: part.source.data, format: part.format } }
        : undefined;
    case "unknown":
      return same ? part.raw : undefined;
    default:
      return undefined;
  }
}

function writeContent(parts: Part[], role: string, same: boolean): unknown {
  // Parts the dialect cannot carry are left out first, so what remains decides the form.
  const kept: Part[] = [];
  const written: unknown[] = [];
  for (const p of parts) {
    const w = writePart(p, role, same);
    if (w === undefined) continue;
    kept.push(p);
    written.push(w);
  }
  const only = kept[0];
  if (kept.length === 1 && only && isPlainText(only, same)) return only.text;
  return written;
}

function reasoningItem(parts: Part[]): JsonRecord {
  const summary = parts
    .filter((p) => p.type === "reasoning")
    .map((p) => ({ type: "summary_text", text: p.text }));
  const thinking = parts.filter((p) => p.type === "thinking");
  const content = thinking
    .filter((p) => !p.redacted && (p.text !== "" || p.signature === undefined))
    .map((p) => ({ type: "reasoning_text", text: p.text }));
  const encrypted = thinking.find((p) => p.signature !== undefined)?.signature;
  return compact({
    type: "reasoning",
    summary,
    content: content.length > 0 ? content : undefined,
    encrypted_content: encrypted,
  });
}

type Run = { kind: "message" | "reasoning" | "call" | "result" | "unknown"; parts: Part[] };

function kindOf(part: Part): Run["kind"] {
  switch (part.type) {
    case "reasoning":
    case "thinking":
      return "reasoning";
    case "tool-call":
      return "call";
    case "tool-result":
      return "result";
    default:
      return "message";
  }
}

/**
 * A canonical message becomes one item per run of parts: content parts make a message item,
 * reasoning and thinking parts a reasoning item, each tool call a function_call, each tool
 * result a function_call_output. The message's extras go on its first item.
 */
function writeItems(message: Message, same: boolean): JsonRecord[] {
  const extras = same ? message.extras : undefined;
  const wireType = typeof extras?.type === "string" ? extras.type : undefined;
  // An item the reader kept whole is one unknown part whose raw item has the same type.
  const only = message.parts[0];
  if (message.parts.length === 1 && only?.type === "unknown" && isRecord(only.raw)) {
    if (wireType !== undefined && only.raw.type === wireType) return [only.raw];
  }
  if (wireType === "reasoning") return [mergeExtras(reasoningItem(message.parts), extras)];
  const runs: Run[] = [];
  for (const part of message.parts) {
    const kind = kindOf(part);
    const last = runs.at(-1);
    if (last && last.kind === kind && (kind === "message" || kind === "reasoning"))
      last.parts.push(part);
    else runs.push({ kind, parts: [part] });
  }
  if (runs.length === 0) runs.push({ kind: "message", parts: [] });
  const items = runs.map((run): JsonRecord => {
    const only = run.parts[0];
    if (run.kind === "call" && only?.type === "tool-call") {
      return {
        type: "function_call",
        call_id: only.id,
        name: only.name,
        arguments: only.arguments,
      };
    }
    if (run.kind === "result" && only?.type === "tool-result") {
      return {
        type: "function_call_output",
        call_id: only.callId,
        output: writeContent(only.content, "tool", same),
      };
    }
    if (run.kind === "reasoning") return reasoningItem(run.parts);
    const role = message.role === "tool" ? "user" : message.role;
    return { role, content: writeContent(run.parts, role, same) };
  });
  const first = items[0];
  if (first && extras) items[0] = mergeExtras(first, extras);
  return items;
}

function writeTool(tool: Tool, same: boolean): JsonRecord | undefined {
  if (tool.kind !== "function") {
    if (!same) return undefined;
    return compact({
      type: tool.kind,
      name: tool.name === "" ? undefined : tool.name,
      ...tool.extras,
    });
  }
  const body = compact({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.schema,
    strict: tool.strict,
  });
  return same ? mergeExtras(body, tool.extras) : body;
}

function writeToolChoice(choice: ToolChoice, tools: readonly Tool[]): unknown {
  if (choice.mode === "tool") {
    // A custom tool is forced in its own form.
    // https://platform.openai.com/docs/api-reference/responses/create#responses-create-tool_choice
    const kind = tools.some((t) => t.kind === "custom" && t.name === choice.name);
    return { type: kind ? "custom" : "function", name: choice.name };
  }
  if (choice.mode === "allowed") {
    return {
      type: "allowed_tools",
      mode: choice.within,
      tools: choice.names.map((name) => ({ type: "function", name })),
    };
  }
  return choice.mode;
}

/** The bare-string `input` form: one user message of one plain text part and nothing else. */
function inputString(messages: Message[], same: boolean): string | undefined {
  const only = messages[0];
  const part = only?.parts[0];
  if (messages.length !== 1 || !only || only.role !== "user" || only.parts.length !== 1)
    return undefined;
  if (
    only.name !== undefined ||
    (same && only.extras !== undefined) ||
    !part ||
    !isPlainText(part, same)
  )
    return undefined;
  return part.text;
}

export function writeResponsesRequest(request: CanonicalRequest, same: boolean): JsonRecord {
  const system = request.system.filter((p) => p.type === "text").map((p) => p.text);
  const tools = request.tools.map((t) => writeTool(t, same)).filter((t) => t !== undefined);
  // Remote MCP servers are tools here, after the others (their order among them is not kept).
  for (const server of request.mcpServers ?? []) tools.push(writeMcpTool(server, same));
  const format = request.responseFormat;
  const body: JsonRecord = compact({
    instructions: system.length > 0 ? system.join("\n\n") : undefined,
    // `input` is optional (a stored prompt or previous_response_id can stand for it).
    input:
      request.messages.length === 0
        ? undefined
        : (inputString(request.messages, same) ??
          request.messages.flatMap((m) => writeItems(m, same))),
    tools: tools.length > 0 ? tools : undefined,
    tool_choice: request.toolChoice && writeToolChoice(request.toolChoice, request.tools),
    text: nonEmpty({
      format:
        format &&
        writtenWithExtras(
          format.type === "json_schema"
            ? compact({
                type: "json_schema",
                name: format.name,
                schema: format.schema,
                strict: format.strict,
              })
            : { type: format.type },
          format,
          same,
        ),
      verbosity: request.verbosity,
    }),
    // A thinking switch with no effort level goes as the effort that means the same.
    reasoning:
      request.reasoning &&
      nonEmpty({ effort: openaiEffort(request.reasoning), summary: request.reasoning.summary }),
    // Read from Responses with other entries, the list is in extras whole (request-read.ts).
    include: request.logprobs === true ? [LOGPROBS_INCLUDE] : undefined,
  });
  return writeValueRows(body, request, RESPONSES_FIELDS.rows, same);
}
