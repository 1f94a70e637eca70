/**
 * Canonical -> Ollama /api/chat request body.
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 *
 * What Ollama cannot express is left out (the lens's no-equivalent table names each):
 * tool_choice, parallel_tool_calls, tools[].strict, n, metadata, user, service tier,
 * stream_options, cache markers, image URLs and file ids, documents, audio,
 * tool-result isError, thinking signatures, response-format name/strict, thinking budgets.
 * Several text parts are joined into one content string with a blank line between them
 * (joined with nothing, "first." + "Second" would become one run-on sentence). A replayed
 * refusal is what the assistant said: it goes in `content` as text.
 */
import type { CanonicalRequest, Message, Part, ReasoningConfig, Tool } from "../canonical.ts";
import { writeValueRows } from "../field-walk.ts";
import type { JsonRecord } from "../json.ts";
import { argumentsObject, compact, mergeExtras } from "../request-fields.ts";
import { OLLAMA_FIELDS } from "./fields.ts";

/** Between parts joined into one string: a blank line keeps them apart, as the client had them. */
const PART_SEPARATOR = "\n\n";

function texts(parts: Part[]): string | undefined {
  const text = parts.flatMap((p) => (p.type === "text" || p.type === "refusal" ? [p.text] : []));
  return text.length > 0 ? text.join(PART_SEPARATOR) : undefined;
}

function images(parts: Part[]): string[] | undefined {
  const data = parts.flatMap((p) =>
    p.type === "image" && p.source.kind === "base64" ? [p.source.data] : [],
  );
  return data.length > 0 ? data : undefined;
}

/** Visible reasoning and non-redacted thinking text go in `thinking` (signatures cannot). */
function thinking(parts: Part[]): string | undefined {
  const texts = parts.flatMap((p) =>
    p.type === "reasoning" || (p.type === "thinking" && !p.redacted) ? [p.text] : [],
  );
  return texts.length > 0 ? texts.join(PART_SEPARATOR) : undefined;
}

function writeMessages(message: Message, same: boolean, names: Map<string, string>): JsonRecord[] {
  const out: JsonRecord[] = [];
  const rest = message.parts.filter((p) => p.type !== "tool-result");
  const calls = message.parts.filter((p) => p.type === "tool-call");
  for (const part of message.parts) {
    if (part.type !== "tool-result") continue;
    out.push(
      compact({
        role: "tool",
        content: texts(part.content),
        images: images(part.content),
        // The link Ollama documents: the function's name. It defines no call id to echo.
        // https://docs.ollama.com/capabilities/tool-calling
        tool_name: part.name ?? names.get(part.callId),
      }),
    );
  }
  if (rest.length > 0 || out.length === 0) {
    const role =
      message.role === "developer" ? "system" : message.role === "tool" ? "tool" : message.role;
    out.push(
      compact({
        role,
        content: texts(rest),
        thinking: thinking(rest),
        images: images(rest),
        tool_calls:
          calls.length > 0
            ? calls.map((c) =>
                compact({
                  function: {
                    name: c.name,
                    arguments: argumentsObject(c.arguments) ?? c.arguments,
                  },
                }),
              )
            : undefined,
      }),
    );
  }
  const first = out[0];
  if (first && same && message.extras) out[0] = mergeExtras(first, message.extras);
  return out;
}

function writeTool(tool: Tool, same: boolean): JsonRecord | undefined {
  if (tool.kind !== "function")
    return same ? compact({ type: tool.kind, ...tool.extras }) : undefined;
  const body = {
    type: "function",
    function: compact({ name: tool.name, description: tool.description, parameters: tool.schema }),
  };
  return same ? mergeExtras(body, tool.extras) : body;
}

function writeThink(r: ReasoningConfig | undefined): unknown {
  if (!r) return undefined;
  if (r.effort !== undefined) return r.effort;
  if (r.mode === "disabled") return false;
  return r.mode === undefined ? undefined : true;
}

export function writeOllamaRequest(request: CanonicalRequest, same: boolean): JsonRecord {
  const names = new Map<string, string>();
  for (const m of request.messages)
    for (const p of m.parts) if (p.type === "tool-call") names.set(p.id, p.name);
  const system = texts(request.system);
  const tools = request.tools.map((t) => writeTool(t, same)).filter((t) => t !== undefined);
  const format = request.responseFormat;
  const body: JsonRecord = compact({
    messages: [
      ...(system === undefined ? [] : [{ role: "system", content: system }]),
      ...request.messages.flatMap((m) => writeMessages(m, same, names)),
    ],
    tools: tools.length > 0 ? tools : undefined,
    format:
      format?.type === "json_object"
        ? "json"
        : format?.type === "json_schema"
          ? format.schema
          : undefined,
    think: writeThink(request.reasoning),
  });
  return writeValueRows(body, request, OLLAMA_FIELDS.rows, same);
}
