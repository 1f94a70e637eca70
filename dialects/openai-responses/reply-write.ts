/**
 * Canonical reply → OpenAI Responses JSON, as OpenAI sends it. Consecutive text and refusal
 * parts share one `message` item; thinking becomes a `reasoning` item (summary text, with the
 * signature as `encrypted_content`); a tool call becomes a `function_call` item whose
 * `call_id` is the canonical id.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
import type { CanonicalReply, Part } from "../canonical.ts";
import { inferStop } from "../openai-chat/reply-write.ts";
import { createdOf, replyDigest } from "../stream-plan.ts";
import { responsesStopToWire } from "./stop-reason.ts";
import { writeResponsesUsage } from "./usage.ts";

export function responsesReplyId(reply: CanonicalReply): string {
  return reply.id ?? `resp_${replyDigest(reply)}`;
}

/** One output item and the canonical parts it carries. */
export interface OutputItem {
  kind: "message" | "reasoning" | "function_call";
  id: string;
  parts: Part[];
}

/** Group parts into output items, in order. */
export function outputItems(reply: CanonicalReply): OutputItem[] {
  const digest = replyDigest(reply, 12);
  const items: OutputItem[] = [];
  for (const part of reply.parts) {
    const n = items.length;
    const last = items[items.length - 1];
    if (part.type === "text" || part.type === "refusal") {
      if (last?.kind === "message") last.parts.push(part);
      else items.push({ kind: "message", id: `msg_${digest}${n}`, parts: [part] });
    } else if (part.type === "thinking" || part.type === "reasoning") {
      items.push({ kind: "reasoning", id: `rs_${digest}${n}`, parts: [part] });
    } else if (part.type === "tool-call") {
      items.push({ kind: "function_call", id: `fc_${digest}${n}`, parts: [part] });
    }
  }
  return items;
}

export function contentEntry(part: Part): Record<string, unknown> {
  return part.type === "refusal"
    ? { type: "refusal", refusal: part.text }
    : { type: "output_text", text: part.type === "text" ? part.text : "", annotations: [] };
}

/** The finished form of an output item (as in `output` and `response.output_item.done`). */
export function itemBody(item: OutputItem): Record<string, unknown> {
  const part = item.parts[0];
  if (item.kind === "function_call" && part?.type === "tool-call") {
    return {
      id: item.id,
      type: "function_call",
      status: "completed",
      arguments: part.arguments,
      call_id: part.id,
      name: part.name,
    };
  }
  if (item.kind === "reasoning") {
    const body: Record<string, unknown> = { id: item.id, type: "reasoning", summary: [] };
    if (part?.type === "thinking") {
      body.summary = [{ type: "summary_text", text: part.text }];
      if (part.signature !== undefined) body.encrypted_content = part.signature;
    } else if (part?.type === "reasoning") {
      body.content = [{ type: "reasoning_text", text: part.text }];
    }
    return body;
  }
  return {
    id: item.id,
    type: "message",
    status: "completed",
    role: "assistant",
    content: item.parts.map(contentEntry),
  };
}

/** status and incomplete_details for a reply, in the reply's own spelling when it is ours. */
export function responsesStatus(reply: CanonicalReply): { status: string; reason?: string } {
  if (reply.dialect === "openai-responses" && reply.rawStopReason !== undefined) {
    const [status, reason] = reply.rawStopReason.split("/");
    return reason === undefined
      ? { status: status ?? "completed" }
      : { status: status ?? "completed", reason };
  }
  return responsesStopToWire(reply.stopReason ?? inferStop(reply.parts));
}

/**
 * Fields OpenAI returns on every response object, here with the values a request that did not
 * set them gets (the API echoes a request's own `tools`, `temperature`, ... there). The SDK's
 * types mark several of them required, and strict readers (the AI SDK) may check them.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
const ALWAYS_PRESENT = {
  background: false,
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  parallel_tool_calls: true,
  previous_response_id: null,
  prompt_cache_key: null,
  reasoning: { effort: null, summary: null },
  safety_identifier: null,
  service_tier: "default",
  store: true,
  temperature: 1,
  text: { format: { type: "text" }, verbosity: "medium" },
  tool_choice: "auto",
  tools: [],
  top_logprobs: 0,
  top_p: 1,
  truncation: "disabled",
  user: null,
  metadata: {},
} as const;

/** The whole response object; `status` overrides for the in-progress copies a stream sends. */
export function writeResponsesReply(
  reply: CanonicalReply,
  stage: "final" | "in_progress" = "final",
): Record<string, unknown> {
  const { status, reason } = responsesStatus(reply);
  const final = stage === "final";
  const own = reply.dialect === "openai-responses" ? reply.extras : {};
  // The reply's own values where it came from a Responses reply (its extras), else defaults.
  const echoed: Record<string, unknown> = { ...ALWAYS_PRESENT };
  for (const key in ALWAYS_PRESENT) if (key in own) echoed[key] = own[key];
  return {
    ...own,
    id: responsesReplyId(reply),
    object: "response",
    created_at: createdOf(reply),
    status: final ? status : "in_progress",
    error:
      final && status === "failed"
        ? { code: reply.error?.type ?? "server_error", message: reply.error?.message ?? "" }
        : null,
    incomplete_details: final && reason !== undefined ? { reason } : null,
    ...echoed,
    model: reply.model ?? "gatecheck-mock",
    output: final ? outputItems(reply).map(itemBody) : [],
    usage: final && reply.usage ? writeResponsesUsage(reply.usage) : null,
  };
}
