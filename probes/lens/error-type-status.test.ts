/**
 * An upstream error with no type (Ollama's `{"error": "..."}`): the client's error type must be
 * its own dialect's type for the status (issue 20 §2), where before it got no verdict at all.
 */
import { describe, expect, it } from "vitest";
import type { ClientDialect } from "../../dialects/dialect.ts";
import { parseExchange } from "../exchange.ts";
import { judgeExchange } from "./judge-exchange.ts";
import { CLIENT_REQUESTS } from "./testing/client-requests.ts";

function errorType(client: ClientDialect, status: number, clientBody: unknown) {
  const verdicts = judgeExchange(
    parseExchange({
      route: { client, backend: "ollama" },
      mode: "non-stream",
      clientRequest: CLIENT_REQUESTS[client],
      forwarded: [{ path: "/api/chat", body: { model: "m", messages: [] } }],
      upstreamReply: { status, body: JSON.stringify({ error: "model 'm' not found" }) },
      clientResponse: { status, body: JSON.stringify(clientBody) },
    }),
  );
  return verdicts.find((v) => v.subject === "error.type");
}

const anthropicError = (type: string) => ({
  type: "error",
  error: { type, message: "model 'm' not found" },
});

describe("error.type when the upstream error has none", () => {
  it("is preserved when the client gets its dialect's type for the status", () => {
    expect(errorType("anthropic-messages", 404, anthropicError("not_found_error"))).toMatchObject({
      verdict: "preserved",
      cause: "status-type",
      reason:
        'error.type: absent (anthropic-messages: 404 is "not_found_error") → "not_found_error"',
    });
    const chat = { error: { message: "x", type: "invalid_request_error", code: null } };
    expect(errorType("openai-chat", 400, chat)?.verdict).toBe("preserved");
  });

  it("is mangled when the type names another class, dropped when there is none", () => {
    expect(errorType("anthropic-messages", 404, anthropicError("api_error"))).toMatchObject({
      verdict: "mangled",
      cause: "status-type",
    });
    expect(errorType("openai-chat", 400, { error: "x" })?.verdict).toBe("dropped");
  });
});
