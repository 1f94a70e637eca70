/**
 * Headers an OpenAI client sends that a gateway should pass on.
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 */
import { reply } from "../all-clients/expand.ts";
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

/**
 * Portkey sends thinking back to a Chat client in `content_blocks` when the client opts out of
 * strict OpenAI compliance with this header; any other gateway may ignore it.
 * @see https://portkey.ai/docs/product/ai-gateway/multimodal-capabilities/thinking-mode
 */
const strictOff = { "x-portkey-strict-open-ai-compliance": "false" };

function thinkingReply(text: string, signature: string) {
  return reply({
    parts: [
      { type: "thinking", text, signature },
      { type: "text", text: "Answer." },
    ],
    stopReason: "stop",
  });
}

export const chatHeaderProbes: Probe[] = [
  {
    id: "oc-header-idempotency-key",
    client: "openai-chat",
    axis: "header",
    field: "headers.idempotency-key",
    request: {},
    headers: { "idempotency-key": "IDEMPROBE-oc-7d8e9f" },
    modes: BOTH_MODES,
    severity: "low",
    note: "the key reaches the backend so a retried request is not billed twice",
  },
  {
    id: "oc-header-user-agent",
    client: "openai-chat",
    axis: "header",
    field: "headers.user-agent",
    request: {},
    headers: { "user-agent": "UAPROBE-oc-client/1.0" },
    modes: BOTH_MODES,
    severity: "low",
    note: "the client's user agent reaches the backend (or the gateway says it replaces it)",
  },
  {
    id: "oc-reply-thinking-strict-compliance-off",
    client: "openai-chat",
    axis: "response",
    field: "thinking",
    request: {},
    headers: strictOff,
    upstream: { reply: thinkingReply("THINKPROBE blocks", "SIGPROBE-blk111==") },
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["anthropic-messages", "gemini"],
    note: "asked for with Portkey's strict-compliance opt-out, thinking arrives in a documented carrier (content_blocks, reasoning_content), not as text or nothing",
  },
  {
    id: "oc-reply-thinking-signature-strict-compliance-off",
    client: "openai-chat",
    axis: "response",
    field: "thinking.signature",
    request: {},
    headers: strictOff,
    upstream: { reply: thinkingReply("THINKPROBE signed blocks", "SIGPROBE-blk222==") },
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["anthropic-messages", "gemini"],
    note: "with Portkey's strict-compliance opt-out, the thinking signature arrives byte-equal in content_blocks",
  },
];
