/**
 * One pass judges an exchange: the verdict for the probe's subject is the pass's own, named
 * in the spelling the probe asked in; the pass's list is the same whether a subject is asked
 * or not.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExchangeText } from "../exchange.ts";
import { readExchange } from "./judge-exchange.ts";
import { judgeRead } from "./judge-read.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");
const load = (name: string) =>
  readExchange(parseExchangeText(readFileSync(join(FIXTURES, name), "utf8"), name));

describe("judgeRead", () => {
  it("gives the subject's most severe verdict from the pass, the list unchanged", () => {
    const read = load("anthropic-to-chat-non-stream-lossy.json");
    const alone = judgeRead(read).verdicts;
    const asked = judgeRead(read, { subject: "sampling.stop", field: "stop_sequences" });
    expect(asked.verdicts).toEqual(alone);
    expect(asked.verdict).toEqual(alone.find((v) => v.subject === "sampling.stop"));
    expect(asked.verdict).toMatchObject({ field: "stop_sequences", verdict: "dropped" });
  });

  it("keys every verdict by subject; the field is the client's spelling", () => {
    const { verdicts } = judgeRead(load("chat-to-anthropic-non-stream-invented.json"));
    for (const v of verdicts) {
      expect(v.subject, v.reason).toBeTruthy();
      expect(v.reason.startsWith(`${v.field}: `), v.reason).toBe(true);
    }
    const maxTokens = verdicts.find((v) => v.subject === "sampling.max-tokens");
    expect(maxTokens).toMatchObject({ field: "max_tokens", sent: 64, got: 64 });
  });

  it("names the verdict in the spelling asked, where it is another spelling of the subject", () => {
    const read = load("anthropic-to-chat-non-stream-lossy.json");
    const asked = judgeRead(read, { subject: "sampling.stop", field: "stop_sequences_alias" });
    expect(asked.verdict?.field).toBe("stop_sequences_alias");
    expect(asked.verdict?.reason.startsWith("stop_sequences_alias: ")).toBe(true);
  });

  it("judges a header the pass leaves out when it is the subject asked", () => {
    const read = load("anthropic-to-chat-non-stream-lossy.json");
    const sent = read.exchange.clientRequest.headers.map(([name]) => name);
    const header = sent.find((n) => n === "user-agent");
    expect(header).toBeDefined();
    const asked = judgeRead(read, { subject: "headers.user-agent", field: "headers.user-agent" });
    expect(asked.verdict).toMatchObject({ subject: "headers.user-agent", verdict: "dropped" });
  });

  it("says why when the subject asked is not in the client request", () => {
    const read = load("anthropic-to-chat-non-stream-faithful.json");
    const asked = judgeRead(read, { subject: "sampling.seed", field: "seed" });
    expect(asked.verdict).toMatchObject({
      verdict: "error",
      cause: "absent-in-source",
      field: "seed",
    });
  });

  it("keeps the two values compared on a value verdict", () => {
    const { verdicts } = judgeRead(load("anthropic-to-chat-non-stream-lossy.json"));
    const stop = verdicts.find((v) => v.subject === "sampling.stop");
    expect(stop).toMatchObject({ sent: expect.any(Array) });
    expect(stop).not.toHaveProperty("got");
  });
});
