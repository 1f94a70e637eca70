/**
 * The lenient default: OpenAI accepts what the other personas reject, so a request passes
 * unless the mock's own malformed-input handling answers first. Kept as a persona (with no
 * rules) so `--persona openai` and the absence of a persona mean the same thing by name.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import { definePersona } from "./persona.ts";

export const openai = definePersona({
  name: "openai",
  description: "OpenAI (lenient default): no request is rejected by a persona rule.",
  rules: [],
  reject: (violation) => ({
    status: violation.status ?? 400,
    body: {
      error: { message: violation.message, type: "invalid_request_error", param: null, code: null },
    },
  }),
});
