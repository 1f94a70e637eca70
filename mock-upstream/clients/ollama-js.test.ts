/**
 * `ollama` (ollama-js) against the mock: `chat` with `stream: false` and streamed, through
 * every case (cases.ts), and `list`.
 */
import { type ChatResponse, Ollama, type Tool } from "ollama";
import { describe, expect, it } from "vitest";
import type { MockHandle } from "../index.ts";
import { CASES, prompt, recordingFetch, type Seen, stageCase, useMock } from "./cases.ts";
import { clientSuite } from "./suite.ts";

const fetchSeen = recordingFetch();

function client(mock: MockHandle): Ollama {
  return new Ollama({ host: mock.url, fetch: fetchSeen.fetch });
}

const tools: Tool[] = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, unit: { type: "string" } },
      },
    },
  },
  {
    type: "function",
    function: {
      name: "get_time",
      parameters: { type: "object", properties: { zone: { type: "string" } } },
    },
  },
];

function seenOf(parts: ChatResponse[]): Seen {
  const last = parts[parts.length - 1];
  return {
    text: parts.map((p) => p.message.content).join(""),
    toolCalls: parts.flatMap((p) =>
      (p.message.tool_calls ?? []).map((c) => ({
        name: c.function.name,
        args: c.function.arguments,
      })),
    ),
    usage:
      last?.prompt_eval_count === undefined
        ? undefined
        : { input: last.prompt_eval_count, output: last.eval_count },
    finish: last?.done_reason,
    reasoning: parts.map((p) => p.message.thinking ?? "").join(""),
  };
}

clientSuite("ollama-js, /api/chat", {
  finish: { stop: "stop", length: "length", tool_calls: "stop" },
  async call(mock, nonce, mode): Promise<Seen> {
    const request = {
      model: "llama3.2:latest",
      messages: [{ role: "user", content: prompt(nonce) }],
      tools,
    };
    if (mode === "non-stream") {
      return seenOf([await client(mock).chat({ ...request, stream: false })]);
    }
    const parts: ChatResponse[] = [];
    for await (const part of await client(mock).chat({ ...request, stream: true }))
      parts.push(part);
    return seenOf(parts);
  },
  error(thrown) {
    // ollama-js does not export its ResponseError class: its fields say what it is.
    if (!(thrown instanceof Error && thrown.name === "ResponseError")) throw thrown;
    const { status_code, error } = thrown as Error & { status_code: number; error: string };
    return {
      status: status_code,
      message: error,
      retryAfter: fetchSeen.lastHeaders()?.get("retry-after") ?? null,
    };
  },
});

describe("ollama-js, what only this client shows", () => {
  const mock = useMock();

  it("list reads Ollama's shape", async () => {
    const { models } = await client(mock()).list();
    expect(models.map((m) => m.name)).toContain("llama3.2:latest");
  });

  it("a chat that says nothing about streaming streams, as Ollama's default is", async () => {
    const m = mock();
    // Through the raw API: the client always says which it wants.
    const res = await fetch(`${m.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "llama3.2:latest",
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (await res.text()).trim().split("\n");
    expect(lines.length).toBeGreaterThan(1);
  });
});

describe("ollama, every request variant of /api/chat", () => {
  const mock = useMock();
  const usageCase = CASES.find((c) => c.name === "usage");
  if (!usageCase?.expect) throw new Error("no usage case");
  const want = usageCase.expect;

  /** A raw request, each NDJSON line parsed with JSON.parse, as ollama-js reads them. */
  async function rawChat(m: MockHandle, nonce: string, stream: boolean | undefined) {
    const res = await fetch(`${m.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "llama3.2:latest",
        messages: [{ role: "user", content: prompt(nonce) }],
        ...(stream === undefined ? {} : { stream }),
      }),
    });
    const text = await res.text();
    return { contentType: res.headers.get("content-type"), text };
  }

  for (const stream of [undefined, true] as const) {
    it(`stream ${stream === undefined ? "absent" : "true"}: NDJSON, the last line done with its counts`, async () => {
      const m = mock();
      const nonce = stageCase(m, usageCase);
      const { contentType, text } = await rawChat(m, nonce, stream);
      expect(contentType).toBe("application/x-ndjson");
      expect(text.endsWith("\n")).toBe(true);
      const lines = text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as ChatResponse);
      expect(lines.length).toBeGreaterThan(1);
      const seen = seenOf(lines);
      expect(seen.text).toBe(want.text);
      expect(seen.usage).toEqual(want.usage);
      expect(lines.at(-1)?.done).toBe(true);
    });
  }

  it("stream: false: one JSON object", async () => {
    const m = mock();
    const nonce = stageCase(m, usageCase);
    const { contentType, text } = await rawChat(m, nonce, false);
    expect(contentType).toMatch(/^application\/json/);
    const seen = seenOf([JSON.parse(text) as ChatResponse]);
    expect(seen.text).toBe(want.text);
    expect(seen.usage).toEqual(want.usage);
  });
});
