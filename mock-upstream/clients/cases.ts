/**
 * The cases every independent client is run through (issue 24): what is staged on the mock,
 * and what the client must then hand its caller. The expectation is stated here from the
 * staged reply alone, never from the mock's own writers, so a writer that drops or bends a
 * field fails the client test instead of agreeing with itself.
 */
import { afterAll, beforeAll } from "vitest";
import { type MockHandle, newNonce, startMock } from "../index.ts";

export interface ToolCallSeen {
  name: string;
  /** The arguments as an object (every client here parses them). */
  args: unknown;
}

/** What a client handed its caller for a successful reply, in one vocabulary. */
export interface Seen {
  text: string;
  toolCalls: ToolCallSeen[];
  /** undefined when the client gave no usage at all. */
  usage: { input: number; output: number } | undefined;
  /** The client's own spelling of the finish reason. */
  finish: string | undefined;
  /** Reasoning text, where the dialect defines it. */
  reasoning?: string;
}

/** What a client's error carried for a non-2xx reply. */
export interface SeenError {
  status: number | undefined;
  message: string;
  /** The `retry-after` header as the client's error (or its fetch) saw it. */
  retryAfter?: string | null;
}

export type CaseName =
  | "text"
  | "tool-call"
  | "parallel-tool-calls"
  | "usage"
  | "reasoning"
  | "length"
  | "error-400"
  | "error-429";

export interface ClientCase {
  name: CaseName;
  /** The staged reply (`reply` of a StagedReplySpec). */
  reply: Record<string, unknown>;
  expect?: {
    text: string;
    toolCalls: ToolCallSeen[];
    /** The staged usage; a reply staged without usage carries zeros, as providers send. */
    usage: { input: number; output: number };
    stop: "stop" | "length" | "tool_calls";
    reasoning?: string;
  };
  expectError?: { status: number; message: string; retryAfter?: string };
}

const TEXT = "Hello from an independent client test.";
const WEATHER = { city: "Paris", unit: "celsius" };
const TIME = { zone: "Europe/Paris" };

export const CASES: readonly ClientCase[] = [
  {
    // Staged without usage: every provider still sends usage, so every client gets zeros.
    name: "text",
    reply: { body: { canonical: { parts: [{ type: "text", text: TEXT }], stopReason: "stop" } } },
    expect: { text: TEXT, toolCalls: [], usage: { input: 0, output: 0 }, stop: "stop" },
  },
  {
    name: "tool-call",
    reply: {
      body: {
        canonical: {
          parts: [
            {
              type: "tool-call",
              id: "call_weather_1",
              name: "get_weather",
              arguments: JSON.stringify(WEATHER),
            },
          ],
          stopReason: "tool_calls",
          usage: { inputTokens: 31, outputTokens: 12, totalTokens: 43 },
        },
      },
    },
    expect: {
      text: "",
      toolCalls: [{ name: "get_weather", args: WEATHER }],
      usage: { input: 31, output: 12 },
      stop: "tool_calls",
    },
  },
  {
    name: "parallel-tool-calls",
    reply: {
      body: {
        canonical: {
          parts: [
            {
              type: "tool-call",
              id: "call_weather_2",
              name: "get_weather",
              arguments: JSON.stringify(WEATHER),
            },
            {
              type: "tool-call",
              id: "call_time_2",
              name: "get_time",
              arguments: JSON.stringify(TIME),
            },
          ],
          stopReason: "tool_calls",
          usage: { inputTokens: 40, outputTokens: 25, totalTokens: 65 },
        },
        // Argument fragments as providers stream them: call after call, never interleaved.
        plan: { toolArgumentChunkSize: 5 },
      },
    },
    expect: {
      text: "",
      toolCalls: [
        { name: "get_weather", args: WEATHER },
        { name: "get_time", args: TIME },
      ],
      usage: { input: 40, output: 25 },
      stop: "tool_calls",
    },
  },
  {
    name: "usage",
    reply: {
      body: {
        canonical: {
          parts: [{ type: "text", text: "Counted." }],
          stopReason: "stop",
          usage: { inputTokens: 1234, outputTokens: 567, totalTokens: 1801 },
        },
        plan: { textChunkSize: 3 },
      },
    },
    expect: { text: "Counted.", toolCalls: [], usage: { input: 1234, output: 567 }, stop: "stop" },
  },
  {
    name: "reasoning",
    reply: {
      body: {
        canonical: {
          parts: [
            { type: "thinking", text: "The user wants a number.", signature: "c2lnLW9uZQ==" },
            { type: "text", text: "42" },
          ],
          stopReason: "stop",
          usage: { inputTokens: 9, outputTokens: 20, totalTokens: 29 },
        },
      },
    },
    expect: {
      text: "42",
      toolCalls: [],
      usage: { input: 9, output: 20 },
      stop: "stop",
      reasoning: "The user wants a number.",
    },
  },
  {
    name: "length",
    reply: {
      body: {
        canonical: {
          parts: [{ type: "text", text: "Once upon a" }],
          stopReason: "length",
          usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
        },
      },
    },
    expect: { text: "Once upon a", toolCalls: [], usage: { input: 5, output: 3 }, stop: "length" },
  },
  {
    name: "error-400",
    reply: {
      status: 400,
      body: { error: { message: "messages: too short", type: "invalid_request_error" } },
    },
    expectError: { status: 400, message: "messages: too short" },
  },
  {
    name: "error-429",
    reply: {
      status: 429,
      headers: { "retry-after": "7" },
      body: { error: { message: "Rate limit reached for requests", type: "rate_limit_error" } },
    },
    expectError: { status: 429, message: "Rate limit reached for requests", retryAfter: "7" },
  },
];

/** The tools a client declares so that its parser accepts the staged calls. */
export const TOOL_NAMES = ["get_weather", "get_time"] as const;

/** One mock for a test file: started before, closed after. */
export function useMock(): () => MockHandle {
  let mock: MockHandle | undefined;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock?.close();
  });
  return () => {
    if (!mock) throw new Error("the mock is not started");
    return mock;
  };
}

/** Stage a case's reply for a fresh nonce; the client must put the nonce in its prompt. */
export function stageCase(mock: MockHandle, c: ClientCase): string {
  const nonce = newNonce();
  mock.stage({ match: { nonce }, reply: c.reply });
  return nonce;
}

/** The prompt carrying the nonce, so the staged reply answers it. */
export function prompt(nonce: string): string {
  return `Answer the test case ${nonce}.`;
}

/** Fetch that remembers the last response's headers: for clients whose errors drop them. */
export function recordingFetch(): { fetch: typeof fetch; lastHeaders: () => Headers | undefined } {
  let last: Headers | undefined;
  return {
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      last = res.headers;
      return res;
    },
    lastHeaders: () => last,
  };
}

export const MODES = ["non-stream", "stream"] as const;
export type ClientMode = (typeof MODES)[number];
