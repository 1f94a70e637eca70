/**
 * The request the mock's benchmarks send: mock-load.ts over HTTP, mock-path.ts in process,
 * so the two measure the same bytes. About 1 KB, as a gateway forwards a short chat turn,
 * with a credential header; `{NONCE}` is replaced per request (or by SHARED_NONCE for all).
 */
export const LOAD_BODY = JSON.stringify({
  model: "gpt-4o-mini",
  messages: [
    { role: "system", content: `You are terse. ${"Answer in one short sentence. ".repeat(28)}` },
    { role: "user", content: "Say hello. {NONCE}" },
  ],
  temperature: 0.3,
});

export const LOAD_AUTHORIZATION = "Bearer sk-proj-benchbenchbenchbenchbench0000";

/** The one nonce of the shared-nonce regime. */
export const SHARED_NONCE = "gc-5ba7ed0000000001";

/**
 * Non-ASCII text as a Python client sends it: `json.dumps` (the default of httpx and
 * requests) writes every non-ASCII character as a `\uXXXX` escape.
 */
export function pythonJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** LOAD_BODY with a German and a Japanese sentence, from a Python client (about 1.1 KB). */
export const ESCAPED_LOAD_BODY = pythonJson({
  ...JSON.parse(LOAD_BODY),
  messages: [
    ...JSON.parse(LOAD_BODY).messages,
    { role: "assistant", content: "Grüße aus München. こんにちは。" },
  ],
});

/** An agent's conversation of 40 turns with accented text, from a Python client (37 KB). */
export const ESCAPED_CONVERSATION_BODY = pythonJson({
  model: "gpt-4o-mini",
  messages: Array.from({ length: 40 }, (_, i) => ({
    role: i % 2 ? "assistant" : "user",
    content: `Turn ${i}: ${"Grüße aus München, naïve café. ".repeat(16)}${i === 0 ? " {NONCE}" : ""}`,
  })),
});

/**
 * An agent's conversation of 40 turns, every assistant turn a tool call whose arguments are a
 * string of JSON (as OpenAI's Chat Completions carries them) answered by a tool message
 * (about 10 KB): redaction parses each arguments string for credential-named keys.
 */
export const AGENT_CONVERSATION_BODY = JSON.stringify({
  model: "gpt-4o-mini",
  messages: Array.from({ length: 40 }, (_, i) =>
    i % 2 === 0
      ? { role: "tool", tool_call_id: `call_${i}`, content: `{"rows": ${i}, "status": "ok"}` }
      : {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `call_${i}`,
              type: "function",
              function: {
                name: "search_orders",
                arguments: JSON.stringify({
                  customer: "ACME Corp",
                  since: "2026-11-01",
                  filters: { status: ["open", "shipped"], region: "EU" },
                  note: `${"Look for late shipments and summarise. ".repeat(4)}${i === 1 ? "{NONCE}" : ""}`,
                }),
              },
            },
          ],
        },
  ),
});
