/**
 * A plain-text document (Anthropic `document` with `source: {type: "text", media_type:
 * "text/plain", data}`) is read as a document and judged like a base64 or URL one (issue 20
 * §2): carried as a document, in the same dialect or as its UTF-8 bytes inline (Chat and
 * Responses `file_data`, Gemini `inlineData`), it is preserved; its words in a text part are
 * `mangled (stringified)`; gone, `dropped`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/citations#plain-text-documents
 */
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../dialects/dialect.ts";
import { readRequest, writeRequestBody } from "../../dialects/request.ts";
import { parseExchange } from "../exchange.ts";
import { judgeField } from "./judge-exchange.ts";

const TEXT = "DOCTEXTPROBE The grass is green. The sky is blue.";
const B64 = Buffer.from(TEXT, "utf8").toString("base64");
const source = { type: "text", media_type: "text/plain", data: TEXT };
const document = { type: "document", source, title: "DOCPROBE notes" };
const ask = { type: "text", text: "Summarize." };
const client = {
  model: "m",
  max_tokens: 64,
  messages: [{ role: "user", content: [ask, document] }],
};

function judged(backend: Dialect, path: string, body: unknown) {
  const v = judgeField(
    parseExchange({
      route: { client: "anthropic-messages", backend },
      mode: "non-stream",
      clientRequest: { path: "/v1/messages", body: client },
      forwarded: [{ path, body }],
    }),
    "messages[].content[].document",
  );
  return v.cause ? `${v.verdict}/${v.cause}` : v.verdict;
}

const chat = (content: unknown[]) => ({ model: "m", messages: [{ role: "user", content }] });

describe("a plain-text document", () => {
  it("is read as a document with a text source", () => {
    const read = readRequest("anthropic-messages", client);
    expect(read.messages[0]?.parts[1]).toEqual({
      type: "document",
      source: { kind: "text", mediaType: "text/plain", data: TEXT },
      title: "DOCPROBE notes",
    });
  });

  it("is preserved as a document, in its own dialect or as its bytes inline", () => {
    expect(judged("anthropic-messages", "/v1/messages", client)).toBe("preserved");
    const file = { type: "file", file: { file_data: `data:text/plain;base64,${B64}` } };
    expect(judged("openai-chat", "/v1/chat/completions", chat([ask, file]))).toBe("preserved");
    const gemini = {
      contents: [
        {
          role: "user",
          parts: [{ text: "Summarize." }, { inlineData: { mimeType: "text/plain", data: B64 } }],
        },
      ],
    };
    expect(judged("gemini", "/v1beta/models/m:generateContent", gemini)).toBe("preserved");
  });

  it("is mangled (stringified) as prose, dropped when gone, mangled when another text", () => {
    const prose = chat([ask, { type: "text", text: TEXT }]);
    expect(judged("openai-chat", "/v1/chat/completions", prose)).toBe("mangled/stringified");
    expect(judged("openai-chat", "/v1/chat/completions", chat([ask]))).toBe("dropped");
    const other = { ...source, data: "Another text entirely." };
    const changed = {
      ...client,
      messages: [{ role: "user", content: [ask, { ...document, source: other }] }],
    };
    expect(judged("anthropic-messages", "/v1/messages", changed)).toBe("mangled");
  });

  it("is written by the dialect writers: Anthropic's text source, the others' inline bytes", () => {
    const read = readRequest("anthropic-messages", client);
    expect(JSON.stringify(writeRequestBody("anthropic-messages", read))).toContain(
      JSON.stringify(source),
    );
    for (const dialect of ["openai-chat", "openai-responses", "gemini"] as const) {
      expect(JSON.stringify(writeRequestBody(dialect, read)), dialect).toContain(B64);
    }
  });
});
