import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readReply } from "../reply.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("ollama reply reader", () => {
  it("reads the documented tool-call reply: done_reason stop after a tool call is a tool turn", () => {
    const got = readReply(
      "ollama",
      { status: 200, body: fixture("reply-tool-call.json") },
      "non-stream",
    );
    expect(got.rawStopReason).toBe("stop");
    expect(got.stopReason).toBe("tool_calls");
    expect(got.parts).toEqual([
      {
        type: "tool-call",
        id: "",
        name: "get_current_weather",
        arguments: '{"format":"celsius","location":"Paris, FR"}',
      },
    ]);
    expect(got.usage).toEqual({ inputTokens: 122, outputTokens: 33 });
    expect(got.extras).toEqual({ created_at: "2024-07-22T20:33:28.123648Z" });
  });

  it("reads the documented error body", () => {
    const got = readReply(
      "ollama",
      { status: 404, body: fixture("error-not-found.json") },
      "non-stream",
    );
    expect(got.error).toMatchObject({
      status: 404,
      message: 'model "llama9" not found, try pulling it first',
    });
  });

  it("reads the documented stream", () => {
    const got = readReply("ollama", { status: 200, body: fixture("stream-text.ndjson") }, "stream");
    expect(got.parts).toEqual([
      { type: "text", text: "The sky is blue because of Rayleigh scattering." },
    ]);
    expect(got.stopReason).toBe("stop");
    expect(got.usage).toEqual({ inputTokens: 26, outputTokens: 282 });
    expect(got.stream).toEqual({
      complete: true,
      terminalEvent: "done",
      events: 3,
      malformed: [],
      orphanFragments: 0,
    });
  });

  it("reads a stream cut before done:true as incomplete, an error line as an error", () => {
    const lines = fixture("stream-text.ndjson").split("\n");
    const cut = readReply(
      "ollama",
      { status: 200, body: `${lines.slice(0, 2).join("\n")}\n` },
      "stream",
    );
    expect(cut.stream?.complete).toBe(false);
    const failed = readReply(
      "ollama",
      {
        status: 200,
        body: `${lines[0]}\n{"error":"an error was encountered while running the model"}\n`,
      },
      "stream",
    );
    expect(failed.stream?.error?.message).toBe("an error was encountered while running the model");
  });
});
