import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { bytesOf, textBytes } from "../../dialects/wire/bytes.ts";
import type { WireExchange } from "../../dialects/wire/exchange.ts";
import type { WireRequest } from "../../dialects/wire/messages.ts";
import { decodeBody, highlightTerms, truncate, wirePanes } from "./wire-detail.ts";

const request: WireRequest = {
  method: "POST",
  path: "/v1/messages",
  headers: [],
  body: textBytes("{}"),
};

function exchange(more: Partial<WireExchange>): WireExchange {
  return {
    route: { client: "anthropic-messages", backend: "openai-chat" },
    mode: "non-stream",
    clientRequest: request,
    forwarded: [],
    ...more,
  };
}

describe("wire panes", () => {
  it("say plainly when nothing was forwarded or the response never came", () => {
    const panes = wirePanes({ exchange: exchange({ clientError: "ECONNRESET" }) });
    expect(panes.forwarded).toMatch(/recorded no request/);
    expect(panes.upstreamReply).toMatch(/no upstream reply/);
    expect(panes.clientResponse).toBe("(no response: ECONNRESET)");
  });

  it("show every forwarded request of a retry and the last reply", () => {
    const forward = { ...request, path: "/v1/chat/completions" };
    const panes = wirePanes({
      exchange: {
        route: { backend: "openai-chat" },
        mode: "non-stream",
        forwarded: [forward, forward],
        upstreamReply: { status: 200, headers: [], body: textBytes('{"n":200}') },
      },
    });
    expect(panes.forwarded).toContain("--- forwarded request 2 of 2 ---");
    expect(panes.upstreamReply).toMatch(/^HTTP 200/);
    expect(panes.clientRequest).toBe("(the client side was not recorded)");
    expect(panes.clientResponse).toBe("(no response: not recorded)");
  });

  it("decode base64 bodies and gzip only when it really is gzip", () => {
    const gz = gzipSync("hello");
    expect(decodeBody(gz, [["Content-Encoding", "gzip"]])).toMatch(/shown decompressed\)\nhello$/);
    expect(decodeBody(Buffer.from("plain"), [["content-encoding", "gzip"]])).toBe("plain");
    const panes = wirePanes({
      exchange: exchange({
        forwarded: [{ ...request, path: "/x?a=1", body: textBytes('{"a":1}') }],
        clientResponse: {
          status: 200,
          headers: [["content-encoding", "gzip"]],
          body: bytesOf(gzipSync('{"b":2}')),
        },
      }),
    });
    expect(panes.forwarded).toBe('POST /x?a=1\n\n{\n  "a": 1\n}');
    expect(panes.clientResponse).toMatch(/shown decompressed\)\n\{"b":2\}$/);
  });

  it("cut long bodies with a note of the full size", () => {
    const cut = truncate("x".repeat(50), 10);
    expect(cut).toBe(
      "xxxxxxxxxx\n… [truncated in this page: 50 characters, first 10 shown; the database keeps all of it]",
    );
    expect(truncate("short", 10)).toBe("short");
  });

  it("mark the probe's planted values and the field name, not bare booleans", () => {
    expect(
      highlightTerms("tool_choice.disable_parallel_tool_use", {
        tool_choice: { type: "auto", disable_parallel_tool_use: true },
      }),
    ).toEqual(["disable_parallel_tool_use", "tool_choice", "auto"]);
    expect(highlightTerms("stop_sequences", { stop_sequences: ["STOPPROBE"] })).toEqual([
      "stop_sequences",
      "STOPPROBE",
    ]);
    expect(highlightTerms("temperature", { temperature: 0.3 })).toEqual(["temperature", "0.3"]);
  });
});

describe("the official SDK's reading under the client response", () => {
  it("says what the SDK made of it, its findings and where it disagrees with the lens", () => {
    const panes = wirePanes({
      exchange: exchange({
        clientResponse: { status: 200, headers: [], body: textBytes("") },
      }),
      clientSdk: {
        view: { accepted: false, error: "stream ended early" },
        findings: ["sdk-rejected-success: stream ended early"],
        disagreements: ["accepted: SDK refused vs lens clean reply"],
      },
    });
    expect(panes.clientResponse).toContain("--- official SDK: refused: stream ended early ---");
    expect(panes.clientResponse).toContain("finding: sdk-rejected-success");
    expect(panes.clientResponse).toContain("SDK ≠ lens (rig problem to look at): accepted");
  });
});
