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
