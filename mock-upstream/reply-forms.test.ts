/**
 * The mock answers every request variant a provider documents as the provider does (the
 * reply-form tables, dialects/<d>/reply-forms.ts): each case below is one documented variant,
 * its expected framing stated from the provider's reference (not read off the table), sent
 * over real HTTP with a staged reply; and a path the provider does not serve gets its 404
 * even when a staged reply's nonce matches.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dialect } from "../dialects/dialect.ts";
import { DIALECTS } from "../dialects/dialect.ts";
import { dialectModule } from "../dialects/registry.ts";
import { readReply } from "../dialects/reply.ts";
import { authHeaders, dialectOfPath, replyFormOf } from "../dialects/routes.ts";
import { type MockHandle, newNonce, startMock } from "./index.ts";

type Framing = "json" | "sse" | "ndjson" | "json-array";

interface VariantCase {
  dialect: Dialect;
  /** The table row's `variant` this case exercises. */
  variant: string;
  /** Path with its query; the body gets the nonce in its first user text. */
  path: string;
  body: (nonce: string) => Record<string, unknown>;
  framing: Framing;
  /** For a stream: whether its end reports usage (the staged 7 input tokens). */
  usage?: boolean;
  see: string;
}

const chat = (extra: Record<string, unknown>) => (nonce: string) => ({
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: nonce }],
  ...extra,
});
const responses = (extra: Record<string, unknown>) => (nonce: string) => ({
  model: "gpt-4.1",
  input: nonce,
  ...extra,
});
const messages = (extra: Record<string, unknown>) => (nonce: string) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 64,
  messages: [{ role: "user", content: nonce }],
  ...extra,
});
const gemini = () => (nonce: string) => ({
  contents: [{ role: "user", parts: [{ text: nonce }] }],
});
const ollama = (extra: Record<string, unknown>) => (nonce: string) => ({
  model: "llama3.2",
  messages: [{ role: "user", content: nonce }],
  ...extra,
});

const CHAT = "https://platform.openai.com/docs/api-reference/chat/create";
const RESPONSES = "https://platform.openai.com/docs/api-reference/responses/create";
const ANTHROPIC = "https://docs.anthropic.com/en/api/messages";
const GEMINI = "https://ai.google.dev/api/generate-content";
const OLLAMA = "https://github.com/ollama/ollama/blob/main/docs/api.md";
const GEMINI_STREAM = "/v1beta/models/gemini-2.5-flash:streamGenerateContent";

const VARIANT_CASES: readonly VariantCase[] = [
  {
    dialect: "openai-chat",
    variant: "stream: true, stream_options.include_usage: true",
    path: "/v1/chat/completions",
    body: chat({ stream: true, stream_options: { include_usage: true } }),
    framing: "sse",
    usage: true,
    see: `${CHAT}#chat-create-stream_options`,
  },
  {
    dialect: "openai-chat",
    variant: "stream: true (no include_usage)",
    path: "/v1/chat/completions",
    body: chat({ stream: true }),
    framing: "sse",
    usage: false,
    see: `${CHAT}#chat-create-stream_options`,
  },
  {
    dialect: "openai-chat",
    variant: "stream: false",
    path: "/v1/chat/completions",
    body: chat({ stream: false }),
    framing: "json",
    see: `${CHAT}#chat-create-stream`,
  },
  {
    dialect: "openai-chat",
    variant: "no stream",
    path: "/v1/chat/completions",
    body: chat({}),
    framing: "json",
    see: `${CHAT}#chat-create-stream`,
  },
  {
    dialect: "openai-chat",
    variant: "otherwise",
    path: "/v1/chat/completions",
    body: chat({ stream: "yes" }),
    framing: "json",
    see: `${CHAT}#chat-create-stream`,
  },
  {
    dialect: "openai-responses",
    variant: "stream: true, stream_options.include_obfuscation: false",
    path: "/v1/responses",
    body: responses({ stream: true, stream_options: { include_obfuscation: false } }),
    framing: "sse",
    usage: true,
    see: `${RESPONSES}#responses-create-stream_options`,
  },
  {
    dialect: "openai-responses",
    variant: "stream: true",
    path: "/v1/responses",
    body: responses({ stream: true }),
    framing: "sse",
    usage: true,
    see: `${RESPONSES}#responses-create-stream`,
  },
  {
    dialect: "openai-responses",
    variant: "stream: false",
    path: "/v1/responses",
    body: responses({ stream: false }),
    framing: "json",
    see: `${RESPONSES}#responses-create-stream`,
  },
  {
    dialect: "openai-responses",
    variant: "no stream",
    path: "/v1/responses",
    body: responses({}),
    framing: "json",
    see: `${RESPONSES}#responses-create-stream`,
  },
  {
    dialect: "openai-responses",
    variant: "otherwise",
    path: "/v1/responses",
    body: responses({ stream: 1 }),
    framing: "json",
    see: `${RESPONSES}#responses-create-stream`,
  },
  {
    dialect: "anthropic-messages",
    variant: "stream: true",
    path: "/v1/messages",
    body: messages({ stream: true }),
    framing: "sse",
    usage: true,
    see: "https://docs.anthropic.com/en/docs/build-with-claude/streaming",
  },
  {
    dialect: "anthropic-messages",
    variant: "stream: false",
    path: "/v1/messages",
    body: messages({ stream: false }),
    framing: "json",
    see: `${ANTHROPIC}#body-stream`,
  },
  {
    dialect: "anthropic-messages",
    variant: "no stream",
    path: "/v1/messages",
    body: messages({}),
    framing: "json",
    see: `${ANTHROPIC}#body-stream`,
  },
  {
    dialect: "anthropic-messages",
    variant: "otherwise",
    path: "/v1/messages",
    body: messages({ stream: "true" }),
    framing: "json",
    see: `${ANTHROPIC}#body-stream`,
  },
  {
    dialect: "gemini",
    variant: ":generateContent",
    path: "/v1beta/models/gemini-2.5-flash:generateContent",
    body: gemini(),
    framing: "json",
    see: `${GEMINI}#method:-models.generatecontent`,
  },
  {
    dialect: "gemini",
    variant: ":streamGenerateContent?alt=sse",
    path: `${GEMINI_STREAM}?alt=sse`,
    body: gemini(),
    framing: "sse",
    usage: true,
    see: `${GEMINI}#method:-models.streamgeneratecontent`,
  },
  {
    dialect: "gemini",
    variant: ":streamGenerateContent (no alt)",
    path: GEMINI_STREAM,
    body: gemini(),
    framing: "json-array",
    usage: true,
    see: "https://cloud.google.com/apis/docs/system-parameters",
  },
  {
    dialect: "gemini",
    variant: ":streamGenerateContent?alt=json",
    path: `${GEMINI_STREAM}?alt=json`,
    body: gemini(),
    framing: "json-array",
    usage: true,
    see: "https://cloud.google.com/apis/docs/system-parameters",
  },
  {
    dialect: "gemini",
    variant: "otherwise",
    path: `${GEMINI_STREAM}?alt=proto`,
    body: gemini(),
    framing: "json-array",
    usage: true,
    see: "https://cloud.google.com/apis/docs/system-parameters",
  },
  {
    dialect: "ollama",
    variant: "stream: false",
    path: "/api/chat",
    body: ollama({ stream: false }),
    framing: "json",
    see: `${OLLAMA}#generate-a-chat-completion`,
  },
  {
    dialect: "ollama",
    variant: "stream: true",
    path: "/api/chat",
    body: ollama({ stream: true }),
    framing: "ndjson",
    usage: true,
    see: `${OLLAMA}#generate-a-chat-completion`,
  },
  {
    dialect: "ollama",
    variant: "no stream",
    path: "/api/chat",
    body: ollama({}),
    framing: "ndjson",
    usage: true,
    see: `${OLLAMA}#streaming-responses`,
  },
  {
    dialect: "ollama",
    variant: "otherwise",
    path: "/api/chat",
    body: ollama({ stream: "no" }),
    framing: "ndjson",
    usage: true,
    see: `${OLLAMA}#streaming-responses`,
  },
];

const STAGED_TEXT = "Variant reply, staged.";
const STAGED = {
  body: {
    canonical: {
      parts: [{ type: "text", text: STAGED_TEXT }],
      stopReason: "stop",
      usage: { inputTokens: 7, outputTokens: 4, totalTokens: 11 },
    },
    plan: { textChunkSize: 6 },
  },
};

/** The bytes of a framing, checked as a client of the provider reads them. */
function readFraming(framing: Framing, text: string): unknown[] {
  switch (framing) {
    case "json":
      return [JSON.parse(text)];
    case "sse":
      expect(text).toMatch(/^(event: [\w.]+\n)?data: /);
      return text
        .split("\n\n")
        .filter((e) => e.trim() !== "")
        .flatMap((e) => e.split("\n").filter((l) => l.startsWith("data: ")))
        .map((l) => l.slice(6))
        .filter((d) => d !== "[DONE]")
        .map((d) => JSON.parse(d));
    case "ndjson":
      expect(text.endsWith("\n")).toBe(true);
      return text
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l));
    case "json-array": {
      // Google's bytes: `[{` then pretty-printed elements, `\n,\r\n` between, `\n]` last.
      expect(text.startsWith("[{\n  ")).toBe(true);
      expect(text.endsWith("}\n]")).toBe(true);
      const parsed: unknown = JSON.parse(text);
      expect(Array.isArray(parsed)).toBe(true);
      const elements = parsed as unknown[];
      expect(text.split("\n,\r\n")).toHaveLength(elements.length);
      return elements;
    }
  }
}

const CONTENT_TYPE: Record<Framing, RegExp> = {
  json: /^application\/json/,
  sse: /^text\/event-stream/,
  ndjson: /^application\/x-ndjson/,
  "json-array": /^application\/json/,
};

/** Whether any event of a stream reports the staged usage (7 input tokens). */
function reportsUsage(events: unknown[]): boolean {
  const text = JSON.stringify(events);
  return /"(prompt_tokens|input_tokens|promptTokenCount|prompt_eval_count)":7\b/.test(text);
}

function post(mock: MockHandle, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${mock.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      // Anthropic's clients send their version; it also tells the mock whose 404 to give.
      ...(path.includes("/messages") ? { "anthropic-version": "2023-06-01" } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

let mock: MockHandle;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

describe("each documented request variant is answered in the provider's form", () => {
  for (const c of VARIANT_CASES) {
    it(`${c.dialect} ${c.variant}: ${c.framing}${c.usage === undefined ? "" : c.usage ? ", usage" : ", no usage"}`, async () => {
      const nonce = newNonce();
      mock.stage({ match: { nonce }, reply: STAGED });
      const res = await post(mock, c.path, c.body(nonce));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(CONTENT_TYPE[c.framing]);
      const events = readFraming(c.framing, await res.text());
      expect(JSON.stringify(events)).toContain(c.framing === "json" ? STAGED_TEXT : "Varian");
      if (c.usage !== undefined) expect(reportsUsage(events)).toBe(c.usage);
      const [record] = mock.records({ nonce });
      expect(record?.reply.staged).toBe(true);
      expect(record?.stream).toBe(c.framing !== "json");
    });
  }

  it("the default (unstaged) reply takes the same form", async () => {
    const res = await post(mock, GEMINI_STREAM, gemini()("no nonce here"));
    const elements = readFraming("json-array", await res.text()) as {
      candidates: { content: { parts: { text: string }[] } }[];
    }[];
    const text = elements.map((e) => e.candidates[0]?.content.parts[0]?.text ?? "").join("");
    expect(text).toBe("Hello from the gatecheck mock.");
  });
});

describe("an error answers in the variant's form", () => {
  const staged = {
    status: 429,
    body: { error: { message: "Resource has been exhausted", type: "RESOURCE_EXHAUSTED" } },
  };
  const error = { code: 429, message: "Resource has been exhausted", status: "RESOURCE_EXHAUSTED" };

  it("Gemini's stream method without alt=sse: a JSON array of one error, pretty-printed", async () => {
    const nonce = newNonce();
    mock.stage({ match: { nonce }, reply: staged });
    const res = await post(mock, GEMINI_STREAM, gemini()(nonce));
    expect(res.status).toBe(429);
    const text = await res.text();
    expect(text).toBe(JSON.stringify([{ error }], null, 2));
    const read = readReply("gemini", { status: 429, body: text }, "stream");
    expect(read.error).toMatchObject({ status: 429, message: error.message });
  });

  it.each([`${GEMINI_STREAM}?alt=sse`, "/v1beta/models/gemini-2.5-flash:generateContent"])(
    "%s: the error object",
    async (path) => {
      const nonce = newNonce();
      mock.stage({ match: { nonce }, reply: staged });
      const res = await post(mock, path, gemini()(nonce));
      expect(await res.json()).toEqual({ error });
    },
  );
});

describe("every row of every table is a case here, with the row's reference", () => {
  it.each(DIALECTS)("%s", (dialect) => {
    const rows = dialectModule(dialect).replyForms;
    const cases = VARIANT_CASES.filter((c) => c.dialect === dialect);
    expect(cases.map((c) => c.variant).sort()).toEqual(rows.map((r) => r.variant).sort());
    for (const c of cases) {
      const [path, query = ""] = c.path.split("?");
      const match = dialectOfPath(path ?? "");
      if (!match) throw new Error(`${c.path} is no route`);
      const row = replyFormOf(match, query, c.body("gc-0000000000000000"));
      expect(row.variant, c.path).toBe(c.variant);
      expect(row.see).toBe(c.see);
    }
  });
});

describe("a path the provider does not serve gets its 404, staged nonce or not", () => {
  // Each body as the provider's clients report it (references in the modules' `notFound`).
  const unserved = [
    {
      path: "/v1/v1/chat/completions",
      body: chat({}),
      dialect: "openai-chat",
      answer: JSON.stringify({
        error: {
          message: "Invalid URL (POST /v1/v1/chat/completions)",
          type: "invalid_request_error",
          param: null,
          code: null,
        },
      }),
    },
    {
      path: "/v1/v1/messages",
      body: messages({}),
      dialect: "anthropic-messages",
      answer: '{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}',
    },
    {
      path: "/v1/v1/responses",
      body: responses({}),
      dialect: "openai-responses",
      answer: JSON.stringify({
        error: {
          message: "Invalid URL (POST /v1/v1/responses)",
          type: "invalid_request_error",
          param: null,
          code: null,
        },
      }),
    },
    {
      path: "/v1beta/v1beta/models/g:generateContent",
      body: gemini(),
      dialect: "gemini",
      answer: JSON.stringify({
        error: {
          code: 404,
          message: "Invalid URL (POST /v1beta/v1beta/models/g:generateContent)",
          status: "NOT_FOUND",
        },
      }),
    },
    {
      path: "/api/api/chat",
      body: ollama({ stream: false }),
      dialect: "ollama",
      answer: "404 page not found",
    },
  ] as const;
  for (const u of unserved) {
    it(`${u.path}`, async () => {
      const nonce = newNonce();
      mock.stage({ match: { nonce }, times: "always", reply: STAGED });
      // The headers the dialect's own clients send: they tell the mock whose 404 to give.
      const res = await post(mock, u.path, u.body(nonce), authHeaders(u.dialect, "test-key"));
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(u.answer);
      const [record] = mock.records({ nonce });
      expect(record?.reply).toMatchObject({ status: 404, staged: false, reason: "unknown-route" });
    });
  }

  it("a provider mount stays served: DeepSeek's /anthropic answers the staged reply", async () => {
    const deepseek = await startMock({ persona: "deepseek", prefix: "/anthropic" });
    try {
      const served = newNonce();
      deepseek.stage({ match: { nonce: served }, reply: STAGED });
      const ok = await post(deepseek, "/anthropic/v1/messages", messages({})(served));
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain(STAGED_TEXT);
      const chatNonce = newNonce();
      deepseek.stage({ match: { nonce: chatNonce }, times: "always", reply: STAGED });
      const chatOk = await post(deepseek, "/v1/chat/completions", chat({})(chatNonce));
      expect(await chatOk.text()).toContain(STAGED_TEXT);
      const doubled = await post(deepseek, "/v1/v1/chat/completions", chat({})(chatNonce));
      expect(doubled.status).toBe(404);
      expect(await doubled.text()).not.toContain(STAGED_TEXT);
    } finally {
      await deepseek.close();
    }
  });
});
