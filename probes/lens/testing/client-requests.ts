/** The smallest valid client request of each client dialect, for exchanges built by hand in tests. */
import type { ClientDialect } from "../../../dialects/dialect.ts";

export const CLIENT_REQUESTS: Record<
  ClientDialect,
  { path: string; body: Record<string, unknown> }
> = {
  "anthropic-messages": {
    path: "/v1/messages",
    body: { model: "m", max_tokens: 64, messages: [{ role: "user", content: "hi" }] },
  },
  "openai-chat": {
    path: "/v1/chat/completions",
    body: { model: "m", messages: [{ role: "user", content: "hi" }] },
  },
  "openai-responses": { path: "/v1/responses", body: { model: "m", input: "hi" } },
};
