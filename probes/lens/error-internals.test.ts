/**
 * Internals a gateway added to an error body (issue 20 §2): stack frames, tracebacks, local
 * paths the upstream's error did not hold are `invented (internals)`; the same passed on from
 * the upstream, or an error without them, `preserved`. The real bytes are in
 * fixtures/real/litellm-oc-file-pdf-ollama-non-stream.json and
 * fixtures/real/musistudio-llms-am-error-429-openai-chat-non-stream.json (judge-real.test.ts).
 */
import { describe, expect, it } from "vitest";
import { parseExchange } from "../exchange.ts";
import { internalsIn } from "./error-internals.ts";
import { judgeExchange } from "./judge-exchange.ts";

const upstreamError = JSON.stringify({
  error: { message: "ERRPROBE rate limited", type: "rate_limit_error", param: null, code: null },
});

type Forwarded = "one" | "none" | "not recorded";

function internals(clientBody: string, options: { upstream?: string; forwarded?: Forwarded } = {}) {
  const forwarded = options.forwarded ?? "one";
  const chat = { model: "m", messages: [{ role: "user", content: "hi" }] };
  const verdicts = judgeExchange(
    parseExchange({
      route: { client: "anthropic-messages", backend: "openai-chat" },
      mode: "non-stream",
      clientRequest: {
        path: "/v1/messages",
        body: { model: "m", max_tokens: 16, messages: [{ role: "user", content: "hi" }] },
      },
      ...(forwarded === "one" ? { forwarded: [{ path: "/v1/chat/completions", body: chat }] } : {}),
      ...(forwarded === "none" ? { forwarded: [] } : {}),
      ...(options.upstream === undefined
        ? {}
        : { upstreamReply: { status: 429, body: options.upstream } }),
      clientResponse: { status: 429, body: clientBody },
    }),
  );
  const v = verdicts.find((x) => x.subject === "error.internals");
  return v && (v.cause ? `${v.verdict}/${v.cause}` : v.verdict);
}

const anthropicError = (message: string) =>
  JSON.stringify({ type: "error", error: { type: "rate_limit_error", message } });

describe("internals in an error body", () => {
  it("finds stack frames, tracebacks, goroutine dumps and local paths, one per kind", () => {
    const js = "Error: boom\n    at nt (/srv/gw/node_modules/@x/llms/dist/server.cjs:67:20940)";
    expect(internalsIn([js]).map((f) => f.what)).toEqual([
      "a JavaScript stack frame",
      "a node_modules path",
      "a local file path",
    ]);
    const py =
      'Traceback (most recent call last):\n  File "/opt/venv/lib/python3.11/site-packages/x.py", line 7, in f';
    expect(internalsIn([py]).map((f) => f.what)).toEqual([
      "a Python traceback",
      "a Python stack frame",
      "a local file path",
    ]);
    expect(internalsIn(["goroutine 1 [running]:\nmain.main()"]).map((f) => f.what)).toEqual([
      "a Go goroutine dump",
    ]);
    expect(internalsIn(["cannot open C:\\gateway\\config.yaml"]).map((f) => f.what)).toEqual([
      "a local file path",
    ]);
  });

  it("finds none in an ordinary message, a route or a URL", () => {
    const ordinary = [
      "ERRPROBE rate limited",
      "POST /v1/messages: model not found at https://api.example.com/v1/models",
      "invalid value at messages[0].content",
    ];
    expect(internalsIn(ordinary)).toEqual([]);
  });

  it("calls internals the upstream's body did not hold invented, judged by value", () => {
    const frames = `ERRPROBE rate limited\n    at w0 (/work/gw/node_modules/llms/server.cjs:67:23904)`;
    expect(internals(anthropicError(frames), { upstream: upstreamError })).toBe(
      "invented/internals",
    );
    expect(internals(anthropicError("ERRPROBE rate limited"), { upstream: upstreamError })).toBe(
      "preserved",
    );
    // Passed on from the upstream's own body: not the gateway's addition.
    const upstreamWithFrames = JSON.stringify({ error: { message: frames, type: "x" } });
    expect(internals(anthropicError(frames), { upstream: upstreamWithFrames })).toBe("preserved");
  });

  it("knows the upstream sent nothing when nothing was forwarded, and says nothing one-sided", () => {
    const py = 'Traceback (most recent call last):\n  File "/opt/gw/app.py", line 3, in main';
    expect(internals(anthropicError(py), { forwarded: "none" })).toBe("invented/internals");
    // Only the client's side: whose the frames are cannot be told, so no verdict.
    expect(internals(anthropicError(py), { forwarded: "not recorded" })).toBeUndefined();
  });
});
