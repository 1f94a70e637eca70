/**
 * A side an exchange does not carry was not recorded, which is not the same as nothing: a
 * missing `forwarded` is "not recorded" (no request verdict), never "nothing was forwarded"
 * (every field rejected or dropped); an exchange without its client side (a mock record file)
 * is judged by what its backend side shows alone.
 */
import { describe, expect, it } from "vitest";
import { parseExchange } from "../exchange.ts";
import { judgeExchange } from "./judge-exchange.ts";

const request = {
  path: "/v1/chat/completions",
  body: { model: "m", messages: [{ role: "user", content: "hi" }], temperature: 0.3 },
};
const reply = (text: string) => ({
  status: 200,
  body: JSON.stringify({
    id: "c1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
  }),
});
const route = { client: "openai-chat", backend: "openai-chat" };

describe("a side that was not recorded", () => {
  it("without `forwarded`, gives no request verdict at all; with it empty, says nothing reached the backend", () => {
    const unrecorded = judgeExchange(
      parseExchange({
        route,
        mode: "non-stream",
        clientRequest: request,
        clientResponse: reply("x"),
      }),
    );
    expect(unrecorded.filter((v) => v.direction === "request")).toEqual([]);
    const nothing = judgeExchange(
      parseExchange({
        route,
        mode: "non-stream",
        clientRequest: request,
        forwarded: [],
        clientResponse: reply("x"),
      }),
    );
    const temperature = nothing.find((v) => v.field === "temperature");
    expect(temperature).toMatchObject({ verdict: "dropped", cause: "not-forwarded" });
  });

  it("without the client side, judges the route the backend got and nothing it cannot compare", () => {
    const recorded = (path: string) =>
      judgeExchange(
        parseExchange({
          route: { backend: "openai-chat" },
          mode: "non-stream",
          forwarded: [{ path, body: request.body }],
          upstreamReply: reply("hello"),
        }),
      );
    const right = recorded("/v1/chat/completions");
    expect(right).toEqual([
      expect.objectContaining({
        subject: "path",
        verdict: "preserved",
        reason: 'path: client\'s not recorded → "/v1/chat/completions" (the openai-chat route)',
      }),
    ]);
    expect(recorded("/v1/v1/chat/completions")).toEqual([
      expect.objectContaining({ subject: "path", verdict: "mangled", cause: "wrong-route" }),
    ]);
    const none = parseExchange({ route: { backend: "openai-chat" }, mode: "stream" });
    expect(judgeExchange(none)).toEqual([]);
  });
});
