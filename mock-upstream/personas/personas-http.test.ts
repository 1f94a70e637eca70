/**
 * Personas through the running mock: a real HTTP request, the provider's status and body on
 * the wire, and the rule on the record.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockHandle, startMock } from "../index.ts";
import { getPersona } from "./index.ts";

const cases = [
  {
    persona: "deepseek",
    path: "/v1/chat/completions",
    body: {
      model: "deepseek-chat",
      messages: [
        { role: "user", content: "gc-00000000000000d1" },
        { role: "tool", tool_call_id: "call_gone", content: "x" },
      ],
    },
    rule: "deepseek/tool-message-has-call",
  },
  {
    persona: "google",
    path: "/v1/chat/completions",
    body: {
      model: "gemini-2.5-flash",
      store: false,
      messages: [{ role: "user", content: "gc-00000000000000d2" }],
    },
    rule: "google/unknown-field",
  },
  {
    persona: "anthropic",
    path: "/v1/messages",
    body: {
      model: "claude-sonnet-4-5",
      messages: [{ role: "user", content: "gc-00000000000000d3" }],
    },
    rule: "anthropic/max-tokens-required",
  },
] as const;

const mocks = new Map<string, MockHandle>();
beforeAll(async () => {
  for (const { persona } of cases) mocks.set(persona, await startMock({ persona }));
});
afterAll(async () => {
  for (const mock of mocks.values()) await mock.close();
});

describe("personas on the wire", () => {
  for (const c of cases) {
    it(`${c.persona} answers ${c.rule} with its own error and records the rule`, async () => {
      const mock = mocks.get(c.persona);
      if (!mock) throw new Error("mock not started");
      const response = await fetch(`${mock.url}${c.path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(c.body),
      });
      const expected = getPersona(c.persona)?.check({
        dialect: c.path === "/v1/messages" ? "anthropic-messages" : "openai-chat",
        path: c.path,
        body: c.body,
        headers: [],
      });
      expect(response.status).toBe(expected?.status);
      const body = await response.json();
      // Anthropic's request_id differs per answer; everything else is the provider's shape.
      const strip = (v: unknown) =>
        v && typeof v === "object" && "request_id" in v ? { ...v, request_id: "" } : v;
      expect(strip(body)).toEqual(strip(expected?.body));
      if (c.persona === "google") expect(Array.isArray(body)).toBe(true);
      const [record] = mock.records();
      expect(record?.reply.personaRule).toBe(c.rule);
      expect(record?.reply.persona).toBe(c.persona);
    });
  }

  it("a request the persona accepts gets the normal reply", async () => {
    const mock = mocks.get("anthropic");
    const response = await fetch(`${mock?.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 16,
        messages: [{ role: "user", content: "gc-00000000000000d4" }],
      }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { type?: string }).type).toBe("message");
  });
});
