/**
 * Canonical -> OpenAI Chat Completions request body.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 *
 * What Chat cannot express is left out (the lens's no-equivalent table names each):
 * thinking parts and their signatures, tool-result isError, cache markers, top-level
 * system cache, Anthropic thinking budgets, URL documents (a `file` part has file_data or
 * file_id only). A tool-call signature (Gemini's thought signature) goes in the call's
 * `extra_content.google.thought_signature`, as Gemini's OpenAI-compatible endpoint spells it. A thinking switch with no effort level goes as the
 * effort that means the same (EFFORT_OF_MODE).
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
import { writeValueRows } from "../field-walk.ts";
import type { JsonRecord } from "../json.ts";
import {
  compact,
  inlineSource,
  mergeExtras,
  nonEmpty,
  toDataUrl,
  writtenWithExtras,
} from "../request-fields.ts";
import { CHAT_FIELDS } from "./fields.ts";

/**
 * Thinking switched on or off without a level, as an OpenAI effort level. `none` turns
 * reasoning off; `medium` is the documented default of reasoning models, the level at which
 * the model decides how much to think (Anthropic adaptive). `enabled` comes with a budget,
 * which has no equivalent (a level is not a count), so it is not turned into a level here.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-reasoning
 */
export const EFFORT_OF_MODE = {
  enabled: undefined,
  adaptive: "medium",
  disabled: "none",
} as const satisfies Record<NonNullable<ReasoningConfig["mode"]>, string | undefined>;

/** The effort level a reasoning config asks for: its own, else the one its switch means. */
export function openaiEffort(reasoning: ReasoningConfig | undefined): string | undefined {
  if (!reasoning) return undefined;
  return reasoning.effort ?? (reasoning.mode && EFFORT_OF_MODE[reasoning.mode]);
}

/**
 * A text part that would be written with nothing but its text, so it can go as a bare
 * string: its extras are only written to the dialect they came from, and its cache marker
 * only where the target can carry one.
 */
export function isPlainText(
  part: Part,
  same: boolean,
  carriesCache = false,
): part is { type: "text"; text: string } {
  if (part.type !== "text") return false;
  return !(same && part.extras !== undefined) && !(carriesCache && part.cache !== undefined);
}

/** One Chat content part, or undefined when Chat has no such part. */
export function writeChatPart(part: Part, same: boolean): unknown {
  return writtenWithExtras(chatPartBody(part, same), part, same);
}

function chatPartBody(part: Part, same: boolean): unknown {
  switch (part.type) {
    case "text":
      // cache_control is not OpenAI's: written back only to the dialect it was read from.
      return compact({
        ...(same ? part.extras : undefined),
        type: "text",
        text: part.text,
        cache_control: same ? part.cache?.raw : undefined,
      });
    case "refusal":
      return { type: "refusal", refusal: part.text };
    case "image": {
      const url = mediaUrl(part.source);
      return url === undefined
        ? undefined
        : {
            ...(same ? part.extras : undefined),
            type: "image_url",
            image_url: compact({ url, detail: part.detail }),
          };
    }
    case "audio":
      return part.source.kind === "base64"
        ? { type: "input_audio", input_audio: { data: part.source.data, format: part.format } }
        : undefined;
    case "document": {
      const s = inlineSource(part.source);
      if (s.kind === "file-id") {
        return { type: "file", file: compact({ file_id: s.fileId, filename: part.title }) };
      }
      if (s.kind === "base64") {
        const data = s.mediaType === undefined ? s.data : toDataUrl(s.mediaType, s.data);
        return { type: "file", file: compact({ file_data: data, filename: part.title }) };
      }
      return undefined;
    }
    case "unknown":
      return same ? part.raw : undefined;
    default:
      return undefined;
  }
}

function mediaUrl(source: MediaSource): string | undefined {
  if (source.kind === "url") return source.url;
  if (source.kind === "base64") return toDataUrl(source.mediaType ?? "", source.data);
  return undefined;
}

/** Content as a bare string when it is one plain text part, else an array of parts. */
export function writeChatContent(parts: Part[], same: boolean): unknown {
  // Parts the dialect cannot carry are left out first, so what remains decides the form.
  const kept: Part[] = [];
  const written: unknown[] = [];
  for (const p of parts) {
    const w = writeChatPart(p, same);
    if (w === undefined) continue;
    kept.push(p);
    written.push(w);
  }
  const only = kept[0];
  if (kept.length === 1 && only && isPlainText(only, same, same)) return only.text;
  return written;
}

function writeToolResult(
  part: Part & { type: "tool-result" },
  same: boolean,
  name: string | undefined,
): JsonRecord {
  return compact({
    role: "tool",
    name,
    tool_call_id: part.callId,
    content: part.content.length > 0 ? writeChatContent(part.content, same) : undefined,
  });
}

function writeAssistant(message: Message, same: boolean): JsonRecord {
  const reasoning = message.parts.filter((p) => p.type === "reasoning");
  const calls = message.parts.filter((p) => p.type === "tool-call");
  const refusals = message.parts.filter((p) => p.type === "refusal");
  // One trailing refusal goes in the `refusal` field; several stay in the content array.
  const refusalField = refusals.length === 1 ? refusals[0] : undefined;
  const content = message.parts.filter(
    (p) =>
      p.type !== "reasoning" &&
      p.type !== "tool-call" &&
      p.type !== "thinking" &&
      p.type !== "tool-result" &&
      p !== refusalField,
  );
  return compact({
    role: "assistant",
    name: message.name,
    // Several reasoning parts stay apart with a blank line, as the other writers join text.
    reasoning_content: reasoning.length > 0 ? reasoning.map((p) => p.text).join("\n\n") : undefined,
    // An assistant tool-call turn with no content is written as null, as OpenAI replies carry it.
    content:
      content.length > 0 ? writeChatContent(content, same) : calls.length > 0 ? null : undefined,
    refusal: refusalField?.text,
    tool_calls:
      calls.length > 0
        ? calls.map((c) =>
            compact({
              id: c.id,
              type: "function",
              function: { name: c.name, arguments: c.arguments },
              // Where Gemini's OpenAI-compatible endpoint takes the call's thought signature
              // back (https://ai.google.dev/gemini-api/docs/thought-signatures).
              extra_content:
                c.signature === undefined
                  ? undefined
                  : { google: { thought_signature: c.signature } },
            }),
          )
        : undefined,
  });
}

/**
 * One canonical message can become several Chat messages: tool results (which Anthropic and
 * Gemini carry inside a user turn) each become a `tool` message, in order.
 */
export function writeChatMessages(message: Message, same: boolean): JsonRecord[] {
  const extras = same ? message.extras : undefined;
  if (message.role === "assistant") return [mergeExtras(writeAssistant(message, same), extras)];
  const out: JsonRecord[] = [];
  let pending: Part[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const role = message.role === "tool" ? "tool" : message.role;
    out.push(compact({ role, name: message.name, content: writeChatContent(pending, same) }));
    pending = [];
  };
  for (const part of message.parts) {
    if (part.type === "tool-result") {
      flush();
      out.push(writeToolResult(part, same, message.role === "tool" ? message.name : undefined));
    } else if (part.type !== "thinking" && part.type !== "reasoning" && part.type !== "tool-call") {
      pending.push(part);
    }
  }
  flush();
  if (out.length === 0) out.push(compact({ role: message.role, name: message.name }));
  const first = out[0];
  if (first && extras) out[0] = mergeExtras(first, extras);
  return out;
}

export function writeChatTool(tool: Tool, same: boolean): JsonRecord | undefined {
  if (tool.kind !== "function") {
    return same ? compact({ type: tool.kind, ...tool.extras }) : undefined;
  }
  const body = {
    type: "function",
    function: compact({
      name: tool.name,
      description: tool.description,
      parameters: tool.schema,
      strict: tool.strict,
    }),
  };
  return same ? mergeExtras(body, tool.extras) : body;
}

function writeToolChoice(choice: ToolChoice, tools: readonly Tool[]): unknown {
  if (choice.mode === "tool") {
    // A custom tool is forced in its own form.
    // https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice
    return tools.some((t) => t.kind === "custom" && t.name === choice.name)
      ? { type: "custom", custom: { name: choice.name } }
      : { type: "function", function: { name: choice.name } };
  }
  if (choice.mode === "allowed") {
    return {
      type: "allowed_tools",
      allowed_tools: {
        mode: choice.within,
        tools: choice.names.map((name) => ({ type: "function", function: { name } })),
      },
    };
  }
  return choice.mode;
}

function writeResponseFormat(format: ResponseFormat): JsonRecord {
  if (format.type !== "json_schema") return { type: format.type };
  return {
    type: "json_schema",
    json_schema: compact({ name: format.name, schema: format.schema, strict: format.strict }),
  };
}

export function writeChatRequest(request: CanonicalRequest, same: boolean): JsonRecord {
  const system: JsonRecord[] =
    request.system.length > 0
      ? [{ role: "system", content: writeChatContent(request.system, same) }]
      : [];
  const tools = request.tools.map((t) => writeChatTool(t, same)).filter((t) => t !== undefined);
  const body: JsonRecord = compact({
    messages: [...system, ...request.messages.flatMap((m) => writeChatMessages(m, same))],
    tools: tools.length > 0 ? tools : undefined,
    tool_choice: request.toolChoice && writeToolChoice(request.toolChoice, request.tools),
    response_format:
      request.responseFormat &&
      writtenWithExtras(writeResponseFormat(request.responseFormat), request.responseFormat, same),
    stream_options:
      request.streamOptions &&
      (nonEmpty({ include_usage: request.streamOptions.includeUsage }) ?? {}),
  });
  writeValueRows(body, request, CHAT_FIELDS.rows, same);
  // A thinking switch with no effort level goes as the effort that means the same.
  if (body.reasoning_effort === undefined) {
    const effort = openaiEffort(request.reasoning);
    if (effort !== undefined) body.reasoning_effort = effort;
  }
  return body;
}
