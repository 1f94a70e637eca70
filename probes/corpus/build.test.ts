import { describe, expect, it } from "vitest";
import { buildClientRequest } from "./build.ts";
import { CorpusError, type Probe } from "./probe.ts";

const nonce = "gc-00112233aabbccdd";
const model = "m-1";

function probe(fields: Partial<Probe> & Pick<Probe, "client">): Probe {
  const prefix = { "anthropic-messages": "am", "openai-chat": "oc", "openai-responses": "or" };
  return {
    id: `${prefix[fields.client]}-test`,
    axis: "request",
    field: "temperature",
    request: {},
    modes: ["stream", "non-stream"],
    severity: "low",
    note: "test",
    ...fields,
  };
}

describe("buildClientRequest", () => {
  it("gives Anthropic its required max_tokens and version header, and the nonce first", () => {
    const built = buildClientRequest(probe({ client: "anthropic-messages" }), {
      nonce,
      mode: "non-stream",
      model,
    });
    expect(built.path).toBe("/v1/messages");
    expect(built.headers["anthropic-version"]).toBe("2023-06-01");
    expect(built.body).toEqual({
      model,
      max_tokens: 256,
      messages: [{ role: "user", content: `${nonce} Reply with the single word OK.` }],
    });
  });

  it("deep-merges the fragment: objects by key, arrays replaced, the probe left untouched", () => {
    const p = probe({
      client: "anthropic-messages",
      request: {
        temperature: 0.3,
        messages: [{ role: "user", content: [{ type: "text", text: "mine" }] }],
      },
    });
    const before = JSON.stringify(p);
    const built = buildClientRequest(p, { nonce, mode: "non-stream", model });
    expect(built.body.temperature).toBe(0.3);
    expect(built.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: `${nonce} mine` }] },
    ]);
    expect(JSON.stringify(p)).toBe(before);
  });

  it("sets stream only in stream mode, and Chat stream_options only when the probe asks", () => {
    const plain = probe({ client: "openai-chat" });
    expect(buildClientRequest(plain, { nonce, mode: "stream", model }).body).toEqual({
      model,
      stream: true,
      messages: [{ role: "user", content: `${nonce} Reply with the single word OK.` }],
    });
    expect("stream" in buildClientRequest(plain, { nonce, mode: "non-stream", model }).body).toBe(
      false,
    );
    const asks = probe({
      client: "openai-chat",
      request: { stream_options: { include_usage: true } },
    });
    expect(buildClientRequest(asks, { nonce, mode: "stream", model }).body.stream_options).toEqual({
      include_usage: true,
    });
  });

  it("plants the nonce in Responses input strings and in input_text parts", () => {
    const str = buildClientRequest(probe({ client: "openai-responses" }), {
      nonce,
      mode: "non-stream",
      model,
    });
    expect(str.path).toBe("/v1/responses");
    expect(str.body.input).toBe(`${nonce} Reply with the single word OK.`);
    const items = buildClientRequest(
      probe({
        client: "openai-responses",
        request: {
          input: [
            { role: "developer", content: "dev" },
            { role: "user", content: [{ type: "input_text", text: "hi" }] },
          ],
        },
      }),
      { nonce, mode: "non-stream", model },
    );
    expect(items.body.input).toEqual([
      { role: "developer", content: "dev" },
      { role: "user", content: [{ type: "input_text", text: `${nonce} hi` }] },
    ]);
  });

  it("adds the probe's headers over the base ones and its query to the path", () => {
    const built = buildClientRequest(
      probe({
        client: "openai-chat",
        headers: { "x-api-key": "k" },
        query: { key: "AIza value" },
      }),
      { nonce, mode: "non-stream", model },
    );
    expect(built.headers).toEqual({ "content-type": "application/json", "x-api-key": "k" });
    expect(built.path).toBe("/v1/chat/completions?key=AIza+value");
  });

  it("refuses a malformed nonce and a request with no user text to carry it", () => {
    expect(() =>
      buildClientRequest(probe({ client: "openai-chat" }), {
        nonce: "gc-xyz",
        mode: "stream",
        model,
      }),
    ).toThrow(CorpusError);
    const noText = probe({
      client: "openai-chat",
      request: {
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "u" } }] }],
      },
    });
    expect(() => buildClientRequest(noText, { nonce, mode: "stream", model })).toThrow(
      /no user text to carry the nonce/,
    );
  });
});
