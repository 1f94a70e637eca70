/**
 * Ollama /api/chat request -> canonical.
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 * @see https://github.com/ollama/ollama/blob/main/api/types.go (Message, ToolCall, Options)
 * @see https://ollama.com/blog/thinking (think, message.thinking)
 * @see https://ollama.com/blog/structured-outputs (format: "json" or a JSON schema)
 *
 * Decisions: `content` is one string (`""` is an empty text part); `images` are base64 image
 * parts after the text; `thinking` is a reasoning part before it. Tool-call `arguments` are
 * objects and are JSON.stringify'd. Ollama calls carry no id unless the client sent one, so
 * the id is "" then. When a tool call carries keys the canonical part cannot hold (Ollama's
 * own replies add `function.index`), the calls stay typed and the raw `tool_calls` list is
 * also kept in message.extras so a same-dialect write repeats it exactly. `think: true` is
 * the adaptive mode (on, the model decides how much), `false` disabled, a string an effort.
 */
import type {
  CanonicalRequest,
  Message,
  Part,
  ReasoningConfig,
  ResponseFormat,
  Role,
  Tool,
} from "../canonical.ts";
import { BodyReader, readValueRows } from "../field-walk.ts";
import { asRecord, asString, isRecord, type JsonRecord } from "../json.ts";
import {
  asRecords,
  asStringArray,
  compact,
  FieldReader,
  nonEmpty,
  onlyKeys,
  readNested,
} from "../request-fields.ts";
import { OLLAMA_FIELDS } from "./fields.ts";

const ROLES = ["system", "user", "assistant", "tool"] as const satisfies Role[];

/** A tool call, and whether it carried keys the canonical part cannot hold. */
function readToolCall(raw: JsonRecord): { part: Part; exact: boolean } | undefined {
  const fn = asRecord(raw.function);
  if (!fn || typeof fn.name !== "string" || !isRecord(fn.arguments)) return undefined;
  if (raw.id !== undefined && typeof raw.id !== "string") return undefined;
  const exact = onlyKeys(raw, ["id", "function"]) && onlyKeys(fn, ["name", "arguments"]);
  return {
    part: {
      type: "tool-call",
      id: raw.id ?? "",
      name: fn.name,
      arguments: JSON.stringify(fn.arguments),
    },
    exact,
  };
}

function readMessage(raw: JsonRecord): Message {
  const f = new FieldReader(raw);
  const role =
    f.take("role", (v) => ((ROLES as readonly unknown[]).includes(v) ? (v as Role) : undefined)) ??
    "user";
  const parts: Part[] = [];
  const thinking = f.take("thinking", asString);
  if (thinking !== undefined) parts.push({ type: "reasoning", text: thinking });
  const content: Part[] = [];
  const text = f.take("content", asString);
  if (text !== undefined) content.push({ type: "text", text });
  for (const data of f.take("images", asStringArray) ?? []) {
    content.push({ type: "image", source: { kind: "base64", data } });
  }
  if (role === "tool") {
    const name = f.take("tool_name", asString);
    const callId = f.take("tool_call_id", asString);
    parts.push(compact({ type: "tool-result" as const, callId: callId ?? "", content, name }));
  } else {
    parts.push(...content);
  }
  const rawCalls = f.record.tool_calls;
  const calls = asRecords(rawCalls)?.map(readToolCall);
  if (calls?.every((c) => c !== undefined) && calls.length > 0) {
    f.keep("tool_calls", calls.every((c) => c.exact) ? undefined : rawCalls);
    for (const call of calls) parts.push(call.part);
  } else {
    f.take("tool_calls", () => undefined);
  }
  return compact({ role, parts, extras: nonEmpty(f.rest()) });
}

function readTool(raw: JsonRecord): Tool {
  const fn = readNested(raw.function, (g) => ({
    name: g.take("name", asString),
    description: g.take("description", asString),
    schema: g.has("parameters") ? g.take("parameters", (v) => v) : undefined,
  }));
  if (
    raw.type === "function" &&
    fn?.value.name !== undefined &&
    onlyKeys(raw, ["type", "function"])
  ) {
    return compact({
      kind: "function",
      name: fn.value.name,
      description: fn.value.description,
      schema: fn.value.schema,
      extras: fn.leftover && { function: fn.leftover },
    });
  }
  const { type, ...rest } = raw;
  return compact({ kind: typeof type === "string" ? type : "", name: "", extras: nonEmpty(rest) });
}

/** `format`: "json" is JSON mode, an object is a JSON schema. */
function readFormat(value: unknown): ResponseFormat | undefined {
  if (value === "json") return { type: "json_object" };
  return isRecord(value) ? { type: "json_schema", schema: value } : undefined;
}

function readThink(value: unknown): ReasoningConfig | undefined {
  if (value === true) return { mode: "adaptive" };
  if (value === false) return { mode: "disabled" };
  return typeof value === "string" ? { effort: value } : undefined;
}

export function readOllamaRequest(raw: JsonRecord): CanonicalRequest {
  const body = new BodyReader(raw);
  const f = body.root;
  const out: CanonicalRequest = {
    dialect: "ollama",
    system: [],
    messages: f.take("messages", asRecords)?.map(readMessage) ?? [],
    tools: f.take("tools", asRecords)?.map(readTool) ?? [],
    sampling: {},
    extras: {},
  };
  f.takeInto(out, "responseFormat", "format", readFormat);
  f.takeInto(out, "reasoning", "think", readThink);
  readValueRows(body, out, OLLAMA_FIELDS.rows);
  out.extras = body.finish();
  return out;
}
