/**
 * Keys named like Object.prototype's members are judged like any other (issue 20): a client
 * key `toString` the gateway dropped is `dropped`, not "mangled into a function", and a key
 * `__proto__` (which JSON.parse makes as an own key) is kept through the exchange parse and
 * the readers instead of setting a prototype and vanishing.
 */
import { describe, expect, it } from "vitest";
import { parseExchangeText } from "../exchange.ts";
import { judgeField } from "./judge-exchange.ts";

const KEYS = ["toString", "constructor", "valueOf", "hasOwnProperty", "__proto__"];

function exchangeText(key: string, forwardKey: boolean): string {
  const messages = [{ role: "user", content: "hi" }];
  const client = `{"model":"m","messages":${JSON.stringify(messages)},${JSON.stringify(key)}:"PROTOPROBE"}`;
  const forwarded = forwardKey ? client : JSON.stringify({ model: "m", messages });
  return JSON.stringify({
    route: { client: "openai-chat", backend: "openai-chat" },
    mode: "non-stream",
    clientRequest: { path: "/v1/chat/completions", headers: {}, body: "BODY" },
    forwarded: [{ method: "POST", path: "/v1/chat/completions", headers: [], body: forwarded }],
  }).replace('"BODY"', client);
}

describe("keys named like Object.prototype's members", () => {
  for (const key of KEYS) {
    it(`judges a client key ${key} like any other`, () => {
      const dropped = judgeField(parseExchangeText(exchangeText(key, false)), key);
      expect(dropped.verdict, dropped.reason).toBe("dropped");
      expect(dropped.reason).toBe(`${key}: "PROTOPROBE" → absent`);
      const kept = judgeField(parseExchangeText(exchangeText(key, true)), key);
      expect(kept.verdict, kept.reason).toBe("preserved");
    });
  }
});
