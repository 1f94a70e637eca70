/**
 * Responses stop reasons (issue 20 §2): `incomplete_details.reason` decides whatever the
 * `status` says, and a stop of no canonical meaning (an unnamed incomplete) never makes a
 * natural stop downstream `preserved`.
 */
import { describe, expect, it } from "vitest";
import type { ClientDialect } from "../../dialects/dialect.ts";
import { parseExchange } from "../exchange.ts";
import { judgeExchange } from "./judge-exchange.ts";
import { CLIENT_REQUESTS } from "./testing/client-requests.ts";

const responsesReply = (status: string, reason?: string) => ({
  id: "resp_1",
  object: "response",
  status,
  model: "m",
  incomplete_details: reason === undefined ? null : { reason },
  output: [
    {
      type: "message",
      id: "msg_1",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: "Hello", annotations: [] }],
    },
  ],
});

const chatReply = (finish: string) => ({
  id: "c1",
  object: "chat.completion",
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello" }, finish_reason: finish }],
});

function finish(client: ClientDialect, upstream: unknown, got: unknown) {
  const verdicts = judgeExchange(
    parseExchange({
      route: { client, backend: "openai-responses" },
      mode: "non-stream",
      clientRequest: CLIENT_REQUESTS[client],
      forwarded: [{ path: "/v1/responses", body: { model: "m", input: "hi" } }],
      upstreamReply: { status: 200, body: JSON.stringify(upstream) },
      clientResponse: { status: 200, body: JSON.stringify(got) },
    }),
  );
  return verdicts.find((v) => v.subject === "finish_reason");
}

describe("Responses stop reasons", () => {
  it("reads incomplete_details.reason whatever the status: a completed reply cut for length", () => {
    const upstream = responsesReply("completed", "max_output_tokens");
    expect(finish("openai-chat", upstream, chatReply("length"))?.verdict).toBe("preserved");
    expect(finish("openai-chat", upstream, chatReply("stop"))).toMatchObject({
      verdict: "mangled",
      cause: "erased-truncation",
    });
  });

  it("never calls a natural stop preserved for an unnamed incomplete", () => {
    const upstream = responsesReply("incomplete", "some_new_reason");
    expect(finish("openai-chat", upstream, chatReply("stop"))).toMatchObject({
      verdict: "mangled",
      cause: "erased-other",
    });
    // Passed through as it came, the same unnamed stop is kept.
    expect(finish("openai-responses", upstream, upstream)?.verdict).toBe("preserved");
    // A plain completed reply still ends naturally.
    expect(finish("openai-chat", responsesReply("completed"), chatReply("stop"))?.verdict).toBe(
      "preserved",
    );
  });
});
