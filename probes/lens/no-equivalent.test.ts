import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CanonicalReply, CanonicalRequest, Part } from "../../dialects/canonical.ts";
import {
  CLIENT_DIALECTS,
  type ClientDialect,
  type Dialect,
  isDialect,
} from "../../dialects/dialect.ts";
import { readReply, writeReply } from "../../dialects/reply.ts";
import { readRequest, requestPath, writeRequestBody } from "../../dialects/request.ts";
import { toolChoiceMeaning } from "../../dialects/tool-choice.ts";
import type { Verdict } from "../verdict.ts";
import { isReplyFeature, REQUEST_ATTRIBUTES, type RequestAttribute } from "./field-names.ts";
import { replyFeaturesOf } from "./judge-reply.ts";
import { carries, judgeRequest } from "./judge-request.ts";
import {
  isRefinedSubject,
  NO_EQUIVALENT,
  noEquivalent,
  REFINED_SUBJECTS,
  type RefinedSubject,
} from "./no-equivalent.ts";

const SPELLINGS = join(import.meta.dirname, "fixtures", "spellings");
const samples: CanonicalRequest[] = CLIENT_DIALECTS.map((d) =>
  readRequest(d, JSON.parse(readFileSync(join(SPELLINGS, `${d}.json`), "utf8"))),
);

const fullReply: CanonicalReply = {
  dialect: "anthropic-messages",
  id: "msg_1",
  parts: [
    { type: "thinking", text: "plan", signature: "sig-1" },
    { type: "text", text: "done" },
  ],
  stopReason: "stop_sequence",
  stopSequence: "STOPPROBE",
  usage: {
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 3,
    cacheWriteTokens: 4,
    reasoningTokens: 2,
  },
  extras: {},
};

describe("the no-equivalent table", () => {
  it("has a reason, a doc link and a known subject in every row, and no duplicate", () => {
    const keys = new Set<string>();
    for (const row of NO_EQUIVALENT) {
      expect(isDialect(row.target)).toBe(true);
      expect(row.reason.length).toBeGreaterThan(5);
      expect(row.see).toMatch(/^https:\/\//);
      const known =
        row.direction === "reply"
          ? isReplyFeature(row.subject)
          : (REQUEST_ATTRIBUTES as readonly string[]).includes(row.subject) ||
            isRefinedSubject(row.subject) ||
            row.subject.startsWith("headers.") ||
            row.subject.startsWith("extras.");
      expect(known, row.subject).toBe(true);
      const key = `${row.direction} ${row.subject} ${row.target}`;
      expect(keys.has(key), key).toBe(false);
      keys.add(key);
      expect(noEquivalent(row.direction, row.subject, row.target)).toBe(row);
    }
  });

  // The dialect writers are the "perfect translation": if even they cannot carry the
  // attribute into the target, the target has nowhere to put it.
  for (const row of NO_EQUIVALENT.filter(
    (r) =>
      r.direction === "request" &&
      !r.subject.startsWith("headers.") &&
      !r.subject.startsWith("extras.") &&
      !isRefinedSubject(r.subject),
  )) {
    it(`request ${row.subject} → ${row.target}: the perfect writer cannot carry it either`, () => {
      const attribute = row.subject as RequestAttribute;
      const source = samples.find((s) => carries(attribute, s));
      expect(source, `a sample carrying ${attribute}`).toBeDefined();
      const request = source as CanonicalRequest;
      const written = writeRequestBody(row.target, request);
      const back = readRequest(row.target, written, { path: requestPath(row.target, request) });
      expect(carries(attribute, back)).toBe(false);
    });
  }

  for (const row of NO_EQUIVALENT.filter((r) => r.direction === "reply")) {
    it(`reply ${row.subject} → ${row.target}: the perfect writer cannot carry it either`, () => {
      expect(replyFeaturesOf(fullReply, 200, "non-stream")).toContain(row.subject);
      const body = JSON.stringify(writeReply(row.target, { ...fullReply, dialect: row.target }));
      const back = readReply(row.target, { status: 200, body }, "non-stream");
      expect(replyFeaturesOf(back, 200, "non-stream")).not.toContain(row.subject);
    });
  }
});

function request(over: Partial<CanonicalRequest>): CanonicalRequest {
  return {
    dialect: "openai-chat",
    system: [],
    messages: [],
    tools: [],
    sampling: {},
    extras: {},
    ...over,
  };
}

function userTurn(...parts: Part[]): CanonicalRequest["messages"] {
  return [{ role: "user", parts: [{ type: "text", text: "look" }, ...parts] }];
}

function flat(req: CanonicalRequest): Part[] {
  return req.messages.flatMap((m) =>
    m.parts.flatMap((p) => (p.type === "tool-result" ? p.content : [p])),
  );
}

const TOOLS = [
  { kind: "function", name: "get_time", schema: { type: "object" } },
  { kind: "function", name: "get_date", schema: { type: "object" } },
];
const SCHEMA = { type: "object", properties: { city: { type: "string" } } };
const URL_IMAGE: Part = {
  type: "image",
  source: { kind: "url", url: "https://example.com/cat.png" },
};
const PNG: Part = {
  type: "image",
  source: { kind: "base64", mediaType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB" },
};
const URL_PDF: Part = {
  type: "document",
  source: { kind: "url", url: "https://example.com/a.pdf" },
};
const PDF: Part = {
  type: "document",
  source: {
    kind: "base64",
    mediaType: "application/pdf",
    data: "JVBERi0xLjQKMSAwIG9iajw8L1R5cGUv",
  },
};

/**
 * Per refined subject: a request carrying the refined kind, one carrying another kind of the
 * same attribute, and how to see the refined kind in a request read back.
 */
const REFINED_CASES: Record<
  RefinedSubject,
  { refined: CanonicalRequest; other: CanonicalRequest; present(req: CanonicalRequest): boolean }
> = {
  "messages.image.url": {
    refined: request({ messages: userTurn(URL_IMAGE) }),
    other: request({ messages: userTurn(PNG) }),
    present: (r) => flat(r).some((p) => p.type === "image" && p.source.kind === "url"),
  },
  "messages.document.url": {
    refined: request({ messages: userTurn(URL_PDF) }),
    other: request({ messages: userTurn(PDF) }),
    present: (r) => flat(r).some((p) => p.type === "document" && p.source.kind === "url"),
  },
  "tool-choice.allowed": {
    refined: request({
      tools: TOOLS,
      toolChoice: { mode: "allowed", within: "required", names: ["get_time", "get_date"] },
    }),
    other: request({ tools: TOOLS, toolChoice: { mode: "required" } }),
    present: (r) =>
      r.toolChoice !== undefined && toolChoiceMeaning(r.toolChoice).mode === "allowed",
  },
  "response-format.json-object": {
    refined: request({ responseFormat: { type: "json_object" } }),
    other: request({ responseFormat: { type: "json_schema", name: "w", schema: SCHEMA } }),
    present: (r) => r.responseFormat?.type === "json_object",
  },
  "response-format.strict": {
    refined: request({
      responseFormat: { type: "json_schema", name: "w", schema: SCHEMA, strict: true },
    }),
    other: request({ responseFormat: { type: "json_schema", name: "w", schema: SCHEMA } }),
    present: (r) => r.responseFormat?.strict !== undefined,
  },
};

function roundTrip(target: Dialect, req: CanonicalRequest): CanonicalRequest {
  return readRequest(target, writeRequestBody(target, req), { path: requestPath(target, req) });
}

describe("refined subjects: a kind of an attribute the target cannot carry", () => {
  for (const row of NO_EQUIVALENT.filter((r) => isRefinedSubject(r.subject))) {
    const subject = row.subject as RefinedSubject;
    const parent = REFINED_SUBJECTS[subject];
    it(`${subject} → ${row.target}: the writer cannot carry it, but carries another ${parent}`, () => {
      const { refined, other, present } = REFINED_CASES[subject];
      expect(present(refined)).toBe(true);
      expect(present(roundTrip(row.target, refined))).toBe(false);
      // Another kind of the same attribute does arrive: a row for the whole attribute would
      // excuse losing it.
      expect(carries(parent, roundTrip(row.target, other))).toBe(true);
      expect(noEquivalent("request", parent, row.target)).toBeUndefined();
    });
  }
});

function verdictOf(
  client: CanonicalRequest,
  forwarded: CanonicalRequest,
  field: string,
): Verdict | undefined {
  return judgeRequest({
    clientDialect: client.dialect as ClientDialect,
    backend: forwarded.dialect,
    client,
    forwarded,
  }).find((v) => v.field === field);
}

const as = (dialect: Dialect, req: CanonicalRequest): CanonicalRequest => ({ ...req, dialect });

describe("the lens judges a refined kind by its own row, and the rest as usual", () => {
  it("a URL image to Ollama is no-equivalent; a base64 image lost beside it is dropped", () => {
    const client = request({ dialect: "anthropic-messages", messages: userTurn(URL_IMAGE) });
    const field = "messages[].content[].image";
    expect(verdictOf(client, as("ollama", request({ messages: userTurn() })), field)).toMatchObject(
      {
        verdict: "no-equivalent",
      },
    );
    const both = request({ dialect: "anthropic-messages", messages: userTurn(URL_IMAGE, PNG) });
    expect(
      verdictOf(both, as("ollama", request({ messages: userTurn(PNG) })), field),
    ).toMatchObject({
      verdict: "no-equivalent",
    });
    expect(verdictOf(both, as("ollama", request({ messages: userTurn() })), field)?.verdict).toBe(
      "dropped",
    );
    // Gemini has fileData for a URL: losing it there is a drop.
    expect(verdictOf(client, as("gemini", request({ messages: userTurn() })), field)?.verdict).toBe(
      "dropped",
    );
  });

  it("a URL document to Chat is no-equivalent; a base64 one is not", () => {
    const field = "messages[].content[].document";
    const url = request({ dialect: "anthropic-messages", messages: userTurn(URL_PDF) });
    const inline = request({ dialect: "anthropic-messages", messages: userTurn(PDF) });
    const none = as("openai-chat", request({ messages: userTurn() }));
    expect(verdictOf(url, none, field)?.verdict).toBe("no-equivalent");
    expect(verdictOf(inline, none, field)?.verdict).toBe("dropped");
  });

  it("JSON mode to Anthropic is no-equivalent; a JSON schema lost there is dropped", () => {
    const none = as("anthropic-messages", request({}));
    const { refined, other } = REFINED_CASES["response-format.json-object"];
    expect(verdictOf(refined, none, "response_format")?.verdict).toBe("no-equivalent");
    expect(verdictOf(other, none, "response_format")?.verdict).toBe("dropped");
  });

  it("strict has no place in Gemini: the schema carried is no-equivalent, a changed one mangled", () => {
    const { refined } = REFINED_CASES["response-format.strict"];
    const carried = as(
      "gemini",
      request({ responseFormat: { type: "json_schema", schema: SCHEMA } }),
    );
    expect(verdictOf(refined, carried, "response_format")).toMatchObject({
      verdict: "no-equivalent",
      reason: expect.stringContaining("no strict flag"),
    });
    const changed = as("gemini", request({ responseFormat: { type: "json_schema", schema: {} } }));
    expect(verdictOf(refined, changed, "response_format")?.verdict).toBe("mangled");
    // Chat has strict: losing it there is a change of meaning.
    const chat = request({ responseFormat: { type: "json_schema", name: "w", schema: SCHEMA } });
    expect(verdictOf(refined, chat, "response_format")?.verdict).toBe("mangled");
  });

  it("an allowed set: one required tool is that tool forced; a wider set has no place in Anthropic", () => {
    const one = request({
      dialect: "openai-responses",
      tools: TOOLS,
      toolChoice: { mode: "allowed", within: "required", names: ["get_time"] },
    });
    const forced = as(
      "anthropic-messages",
      request({ tools: TOOLS, toolChoice: { mode: "tool", name: "get_time" } }),
    );
    expect(verdictOf(one, forced, "tool_choice")?.verdict).toBe("preserved");
    const { refined } = REFINED_CASES["tool-choice.allowed"];
    const client = as("openai-responses", refined);
    const none = as("anthropic-messages", request({ tools: TOOLS }));
    expect(verdictOf(client, none, "tool_choice")?.verdict).toBe("no-equivalent");
    expect(
      verdictOf(client, as("openai-chat", request({ tools: TOOLS })), "tool_choice")?.verdict,
    ).toBe("dropped");
    const any = as(
      "anthropic-messages",
      request({ tools: TOOLS, toolChoice: { mode: "required" } }),
    );
    expect(verdictOf(client, any, "tool_choice")?.verdict).toBe("mangled");
  });

  it("a PDF inside a tool result to Ollama is no-equivalent when the rest arrives, else judged", () => {
    const result = (content: Part[]): CanonicalRequest["messages"] => [
      { role: "user", parts: [{ type: "text", text: "go" }] },
      { role: "assistant", parts: [{ type: "tool-call", id: "c1", name: "f", arguments: "{}" }] },
      { role: "tool", parts: [{ type: "tool-result", callId: "c1", content }] },
    ];
    const text: Part = { type: "text", text: "RESULTPROBE see attached" };
    const client = request({ dialect: "anthropic-messages", messages: result([text, PDF]) });
    const field = "messages[].content[].tool_result";
    expect(
      verdictOf(client, as("ollama", request({ messages: result([text]) })), field),
    ).toMatchObject({
      verdict: "no-equivalent",
      reason: expect.stringContaining("document → absent (ollama: images only)"),
    });
    const lostText = as("ollama", request({ messages: result([{ type: "text", text: "other" }]) }));
    expect(verdictOf(client, lostText, field)?.verdict).toBe("mangled");
    // Gemini carries the PDF (functionResponse.parts): losing it there is a change.
    expect(
      verdictOf(client, as("gemini", request({ messages: result([text]) })), field)?.verdict,
    ).toBe("mangled");
  });
});
