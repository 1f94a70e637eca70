import { describe, expect, it } from "vitest";
import { nonceFromHalves, nonceHalf } from "../dialects/nonce.ts";
import { findNonce, isNonce, NONCE_PATTERN, newNonce } from "./nonce.ts";
import { acceptsGzip, guessDialect, isJsonContentType } from "./request-facts.ts";
import { StageStore } from "./stage-store.ts";
import { parseStagedReply, StagedReplySpec } from "./staged-reply-spec.ts";
import { cutUnits, resolveCuts, truncateFrames } from "./wire-plan.ts";

describe("nonce", () => {
  it("has the documented shape and is found anywhere in raw bytes", () => {
    const n = newNonce();
    expect(n).toMatch(/^gc-[0-9a-f]{16}$/);
    expect(isNonce(n)).toBe(true);
    expect(NONCE_PATTERN.test(n)).toBe(true);
    expect(findNonce(`{"content":"line\\n${n} rest"}`)).toBe(n);
    expect(findNonce("gc-0123456789abcdef0")).toBeUndefined();
    expect(findNonce("gc-0123456789ABCDEF")).toBeUndefined();
    expect(findNonce("nothing here")).toBeUndefined();
  });

  it("is found where the pattern finds it, in text made of near-nonces", () => {
    const pieces = ["gc-", "gc", "-", "0123456789abcdef", "0", "f", "A", "g", "c", " ", "é"];
    let x = 7;
    for (let n = 0; n < 3000; n++) {
      let text = "";
      for (let k = 0; k < n % 13; k++) {
        x = (x * 1103515245 + 12345) >>> 0;
        text += pieces[x % pieces.length];
      }
      expect(findNonce(text), text).toBe(NONCE_PATTERN.exec(text)?.[0]);
    }
  });

  it("comes back whole from its two 32-bit halves, every digit and sign bit included", () => {
    const edges = [
      "gc-0000000000000000",
      "gc-ffffffffffffffff",
      "gc-80000000ffffffff",
      "gc-7fffffff80000000",
    ];
    for (const n of [...edges, ...Array.from({ length: 2_000 }, () => newNonce())]) {
      const high = nonceHalf(n, 0);
      const low = nonceHalf(n, 1);
      expect(Number.isInteger(high) && Number.isInteger(low)).toBe(true);
      expect(nonceFromHalves(high, low)).toBe(n);
    }
  });

  it("never repeats across pool refills (the bytes are drawn 4 KiB at a time)", () => {
    const nonces = Array.from({ length: 2_000 }, () => newNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(nonces.every(isNonce)).toBe(true);
  });
});

describe("stage store", () => {
  const spec = (s: unknown) => StagedReplySpec.parse(s);
  const req = (rawText: string, model?: string, path = "/v1/chat/completions") => ({
    rawText,
    model,
    path,
    prefixless: path,
  });

  it("serves a sequence in order, N passes, then removes it", () => {
    const store = new StageStore();
    store.add(
      spec({ match: { model: "m" }, times: 2, sequence: [{ status: 503 }, { status: 200 }] }),
    );
    const got = Array.from({ length: 5 }, () => store.take(req("", "m"))?.reply.status);
    expect(got).toEqual([503, 200, 503, 200, undefined]);
    expect(store.list()).toHaveLength(0);
  });

  it("prefers nonce over model over path over match-all, whatever the staging order", () => {
    const store = new StageStore();
    store.add(spec({ times: "always", reply: { status: 500 } }));
    store.add(
      spec({ match: { path: "/v1/chat/completions" }, times: "always", reply: { status: 501 } }),
    );
    store.add(spec({ match: { model: "m" }, times: "always", reply: { status: 502 } }));
    store.add(
      spec({ match: { nonce: "gc-aaaaaaaaaaaaaaaa" }, times: "always", reply: { status: 503 } }),
    );
    expect(store.take(req("x gc-aaaaaaaaaaaaaaaa", "m"))?.reply.status).toBe(503);
    expect(store.take(req("x", "m"))?.reply.status).toBe(502);
    expect(store.take(req("x", "other"))?.reply.status).toBe(501);
    expect(store.take(req("x", "other", "/v1/messages"))?.reply.status).toBe(500);
  });
});

describe("wire plan cuts", () => {
  const body = Buffer.from('data: {"t":"é"}\n\ndata: {"t":"x"}\n\n');

  it("resolves cuts inside a UTF-8 character and a data: line", () => {
    const e = body.indexOf(0xc3);
    expect(resolveCuts(body, [{ inside: "utf8-char", nth: 1 }])).toEqual([e + 1]);
    const second = body.indexOf("data:", 1);
    // The middle of the 15-byte line `data: {"t":"x"}`.
    expect(resolveCuts(body, [{ inside: "data-line", nth: 2 }])).toEqual([second + 7]);
    // Out-of-range and duplicate cuts are dropped; cuts come back sorted.
    expect(resolveCuts(body, [9, 0, 9, 3, 999, { inside: "utf8-char", nth: 5 }])).toEqual([3, 9]);
  });

  it("cuts units per event, whole, or every N bytes, never losing a byte", () => {
    const units = [Buffer.from("ab"), Buffer.from("cde"), Buffer.from("f")];
    expect(cutUnits(units, "event").map(String)).toEqual(["ab", "cde", "f"]);
    expect(cutUnits(units, "whole").map(String)).toEqual(["abcdef"]);
    expect(cutUnits(units, { every: 4 }).map(String)).toEqual(["abcd", "ef"]);
    expect(cutUnits(units, { at: [1, 5] }).map(String)).toEqual(["a", "bcde", "f"]);
  });

  it("truncates frames to a byte count", () => {
    const frames = [Buffer.from("abc"), Buffer.from("def")].map((bytes) => ({ bytes, delayMs: 1 }));
    expect(truncateFrames(frames, 4).map((f) => String(f.bytes))).toEqual(["abc", "d"]);
  });
});

describe("request facts", () => {
  it("reads accept-encoding, JSON content types and guesses a dialect for unknown paths", () => {
    expect(acceptsGzip([["Accept-Encoding", "br, gzip;q=0.5"]])).toBe(true);
    expect(acceptsGzip([["accept-encoding", "gzip;q=0, br"]])).toBe(false);
    expect(acceptsGzip([])).toBe(false);
    expect(isJsonContentType("application/json; charset=utf-8")).toBe(true);
    expect(isJsonContentType("application/vnd.api+json")).toBe(true);
    expect(isJsonContentType("text/plain")).toBe(false);
    expect(guessDialect("/v1/v1/messages", [["anthropic-version", "2023-06-01"]])).toBe(
      "anthropic-messages",
    );
    expect(guessDialect("/v1beta/models/x:countTokens", [])).toBe("gemini");
    expect(guessDialect("/api/generate", [])).toBe("ollama");
    expect(guessDialect("/v2/responses", [])).toBe("openai-responses");
    expect(guessDialect("/v1/v1/chat/completions", [])).toBe("openai-chat");
  });
});

describe("staged canonical replies", () => {
  const parse = (canonical: unknown) => parseStagedReply({ reply: { body: { canonical } } });

  it("accepts a canonical reply and refuses what the strict schema does not know, by path", () => {
    expect(parse({ parts: [{ type: "text", text: "hi" }], stopReason: "stop" }).ok).toBe(true);
    const misspelled = parse({ parts: [{ type: "text", txt: "hi" }] });
    expect(misspelled.ok).toBe(false);
    expect(!misspelled.ok && misspelled.error).toMatch(/reply\.body\.canonical\.parts\[0\]/);
    const unknownKey = parse({ parts: [], stopreason: "stop" });
    expect(!unknownKey.ok && unknownKey.error).toMatch(/stopreason/);
    const badStop = parse({ parts: [], stopReason: "finished" });
    expect(!badStop.ok && badStop.error).toMatch(/reply\.body\.canonical\.stopReason/);
  });
});
