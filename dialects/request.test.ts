import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DIALECTS, type Dialect } from "./dialect.ts";
import { DialectError } from "./dialect-error.ts";
import { readRequest, requestPath, writeRequestBody } from "./request.ts";

describe("readRequest", () => {
  it.each(DIALECTS)("%s: a body that is not an object throws not-an-object", (dialect) => {
    for (const body of [null, [], "text", 3, undefined]) {
      expect(() => readRequest(dialect, body)).toThrow(DialectError);
    }
    try {
      readRequest(dialect, [1]);
    } catch (error) {
      expect((error as DialectError).code).toBe("not-an-object");
      expect((error as DialectError).message).toBe(
        `${dialect} request body must be a JSON object, got an array`,
      );
    }
  });

  it("an unknown dialect name throws unknown-dialect", () => {
    expect(() => readRequest("cohere" as Dialect, {})).toThrow(
      expect.objectContaining({ code: "unknown-dialect" }),
    );
  });

  it.each(DIALECTS)(
    "%s: an empty object reads to an empty request and writes nothing invented",
    (dialect) => {
      const r = readRequest(dialect, {});
      expect(r).toMatchObject({
        dialect,
        system: [],
        messages: [],
        tools: [],
        sampling: {},
        extras: {},
      });
      const written = writeRequestBody(dialect, r);
      // Only the required message list may appear, empty.
      expect(Object.values(written).every((v) => Array.isArray(v) && v.length === 0)).toBe(true);
    },
  );

  it("gemini: the model and the stream choice come from the path", () => {
    const r = readRequest(
      "gemini",
      { contents: [] },
      { path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse" },
    );
    expect(r.model).toBe("gemini-2.5-flash");
    expect(r.stream).toBe(true);
    const plain = readRequest(
      "gemini",
      { contents: [] },
      { path: "/v1beta/models/gemini-2.5-flash:generateContent" },
    );
    expect(plain.stream).toBe(false);
    expect(readRequest("gemini", { contents: [] }).model).toBeUndefined();
    const prefixed = readRequest(
      "gemini",
      { contents: [] },
      { path: "/gemini/v1beta/models/gemini-pro:generateContent?key=k" },
    );
    expect(prefixed.model).toBe("gemini-pro");
    expect(
      readRequest("gemini", { contents: [] }, { path: "/v1/chat/completions" }).model,
    ).toBeUndefined();
  });

  it("ollama: stream absent stays undefined (no default filled in)", () => {
    expect(readRequest("ollama", { model: "llama3.2", messages: [] }).stream).toBeUndefined();
  });
});

describe("requestPath", () => {
  it("puts the Gemini model and streaming in the path", () => {
    const r = readRequest(
      "gemini",
      { contents: [] },
      { path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent" },
    );
    expect(requestPath("gemini", r)).toBe(
      "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
    expect(requestPath("openai-chat", r)).toBe("/v1/chat/completions");
  });
});

describe("cross-dialect: Anthropic read, written as Chat", () => {
  const anthropic = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: [{ type: "text", text: "SYSPROBE-7731", cache_control: { type: "ephemeral" } }],
    messages: [{ role: "user", content: "What's the weather?" }],
    tools: [
      {
        name: "get_weather",
        description: "Weather",
        input_schema: { type: "object" },
        strict: true,
      },
    ],
    tool_choice: { type: "any", disable_parallel_tool_use: true },
    stop_sequences: ["STOPPROBE"],
    temperature: 0.3,
    top_p: 0.9,
    top_k: 5,
    metadata: { user_id: "u-1" },
    stream: true,
    thinking: { type: "enabled", budget_tokens: 2048 },
  };
  const chat = writeRequestBody("openai-chat", readRequest("anthropic-messages", anthropic));

  it("maps each field to its Chat spelling", () => {
    expect(chat).toEqual({
      model: "claude-sonnet-4-5",
      messages: [
        { role: "system", content: "SYSPROBE-7731" },
        { role: "user", content: "What's the weather?" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather",
            parameters: { type: "object" },
            strict: true,
          },
        },
      ],
      tool_choice: "required",
      parallel_tool_calls: false,
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 1024,
      stop: ["STOPPROBE"],
      user: "u-1",
      stream: true,
    });
  });

  it("and the Chat body reads back to the same meaning", () => {
    const back = readRequest("openai-chat", chat);
    expect(back.sampling.stop).toEqual(["STOPPROBE"]);
    expect(back.parallelToolCalls).toBe(false);
    expect(back.toolChoice).toEqual({ mode: "required" });
  });
});

describe("readers never write into the body they read", () => {
  const all = DIALECTS.flatMap((dialect) => {
    const dir = new URL(`./${dialect}/fixtures/`, import.meta.url);
    return readdirSync(dir)
      .filter((f) => f.startsWith("request-") && f.endsWith(".json"))
      .map((f) => [dialect, f, new URL(f, dir)] as const);
  });

  function deepFreeze<T>(value: T): T {
    if (typeof value === "object" && value !== null) {
      for (const inner of Object.values(value)) deepFreeze(inner);
      Object.freeze(value);
    }
    return value;
  }

  it.each(all)("%s %s: read from a deeply frozen body", (dialect, _name, url) => {
    const { body, path } = JSON.parse(readFileSync(url, "utf8"));
    const before = JSON.stringify(body);
    const read = readRequest(dialect, deepFreeze(body), { path });
    expect(JSON.stringify(body)).toBe(before);
    expect(() => writeRequestBody(dialect, read)).not.toThrow();
  });
});

describe("tool choice survives every dialect that can carry it", () => {
  const choices = [
    { mode: "auto" },
    { mode: "none" },
    { mode: "required" },
    { mode: "tool", name: "get_weather" },
  ] as const;
  const carriers = ["openai-chat", "openai-responses", "anthropic-messages", "gemini"] as const;
  it.each(carriers.flatMap((d) => choices.map((c) => [d, c] as const)))(
    "%s %o",
    (dialect, choice) => {
      const request = readRequest("openai-chat", { messages: [], tool_choice: "auto" });
      const written = writeRequestBody(dialect, { ...request, toolChoice: choice });
      expect(readRequest(dialect, written).toolChoice).toEqual(choice);
    },
  );

  it("ollama has no tool choice: nothing is written", () => {
    const request = readRequest("openai-chat", { messages: [], tool_choice: "required" });
    expect(writeRequestBody("ollama", request)).toEqual({ messages: [] });
  });
});

describe("perfect translation carries the first user text (where the sweep plants its nonce)", () => {
  const all = DIALECTS.flatMap((dialect) => {
    const dir = new URL(`./${dialect}/fixtures/`, import.meta.url);
    return readdirSync(dir)
      .filter((f) => f.startsWith("request-") && f.endsWith(".json"))
      .map((f) => [dialect, f, new URL(f, dir)] as const);
  });

  function firstUserText(request: ReturnType<typeof readRequest>): string | undefined {
    for (const message of request.messages) {
      if (message.role !== "user") continue;
      for (const part of message.parts) if (part.type === "text") return part.text;
    }
    return undefined;
  }

  it.each(all)("%s %s to every dialect", (dialect, _name, url) => {
    const { body, path } = JSON.parse(readFileSync(url, "utf8"));
    const source = readRequest(dialect, body, { path });
    const text = firstUserText(source);
    expect(text).toBeDefined();
    for (const target of DIALECTS) {
      const written = writeRequestBody(target, source);
      const back = readRequest(target, written, { path: requestPath(target, source) });
      expect(firstUserText(back), `${dialect} -> ${target}`).toBe(text);
      expect(back.model, `${dialect} -> ${target}`).toBe(source.model);
    }
  });
});
