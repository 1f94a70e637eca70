/**
 * Whole exchanges, wire bytes in, verdicts out, read by the dialect readers. Each fixture's
 * `note` says what a careful reader sees in its bytes; the table below is that reading. The
 * non-clean verdicts of each fixture are listed exactly, so an unexpected finding fails too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExchangeText } from "../exchange.ts";
import { isClean, VERDICTS, type Verdict, type VerdictKind } from "../verdict.ts";
import { judgeExchange, judgeField } from "./judge-exchange.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");

function load(name: string) {
  return parseExchangeText(readFileSync(join(FIXTURES, name), "utf8"), name);
}

type Expected = Record<string, VerdictKind | `${VerdictKind}/${string}`>;

/** Non-clean verdicts, exactly; and some clean ones worth pinning. */
const READINGS: Record<string, { findings: Expected; clean?: Expected }> = {
  "anthropic-to-chat-non-stream-faithful.json": {
    findings: {},
    clean: {
      stop_sequences: "preserved",
      "tool_choice.disable_parallel_tool_use": "preserved",
      "tools[].strict": "preserved",
      "headers.anthropic-beta": "no-equivalent",
      "credentials.header.x-api-key": "preserved",
      model: "preserved/routed",
      "usage.input_tokens": "preserved",
      finish_reason: "preserved",
    },
  },
  "anthropic-to-chat-non-stream-lossy.json": {
    findings: {
      "messages[].content[].image": "mangled/stringified",
      "tools[].input_schema": "invented/schema-additions",
      "tool_choice.disable_parallel_tool_use": "dropped",
      stop_sequences: "dropped",
      "headers.user-agent": "dropped",
      "credentials.header.x-api-key": "leaked",
      path: "mangled/wrong-route",
      finish_reason: "mangled/erased-truncation",
      "tool_calls[].id": "mangled/id-rewritten",
      "usage.input_tokens": "mangled",
      // The client's reply alone: a tool call that ends "end_turn" (issue 20 §3).
      "invariant.tool-stop": "mangled/no-tool-stop",
    },
    clean: { top_k: "no-equivalent", "messages[].content[].id": "preserved/rewritten-linked" },
  },
  "anthropic-to-chat-stream-error-swallowed.json": {
    findings: {
      "error.message": "dropped",
      "error.type": "dropped",
      "stream.terminal": "mangled/error-swallowed",
    },
  },
  "chat-to-anthropic-stream-thinking-leak.json": {
    findings: {
      temperature: "dropped",
      text: "mangled",
      thinking: "mangled/reasoning-as-text",
      "stream.terminal": "dropped/truncated-stream",
    },
    clean: {
      reasoning_effort: "preserved/as-budget",
      max_completion_tokens: "preserved",
      "stream_options.include_usage": "preserved",
      "thinking.signature": "no-equivalent",
    },
  },
  "anthropic-to-chat-non-stream-status-relabelled.json": {
    findings: {
      "error.status": "mangled/status-relabelled",
      "error.message": "dropped",
      "error.type": "dropped",
    },
  },
  "anthropic-to-chat-non-stream-rejected.json": {
    findings: {
      model: "rejected",
      messages: "rejected",
      "messages[].content[].text": "rejected",
      top_k: "rejected",
      max_tokens: "rejected",
      path: "rejected",
    },
    clean: { "credentials.header.x-api-key": "preserved" },
  },
  "responses-to-chat-non-stream-faithful.json": {
    findings: {},
    clean: {
      instructions: "preserved",
      max_output_tokens: "preserved",
      "text.format": "preserved",
      "reasoning.effort": "preserved",
      "headers.idempotency-key": "preserved",
    },
  },
  "anthropic-to-gemini-non-stream-tool-turn.json": {
    findings: {},
    clean: {
      "metadata.user_id": "no-equivalent",
      stop_sequences: "preserved",
      top_k: "preserved",
      "tools[].input_schema": "preserved",
      finish_reason: "preserved",
      path: "preserved",
      id: "preserved/reissued",
    },
  },
  "chat-to-ollama-stream-tool-turn.json": {
    findings: {},
    clean: {
      "invariant.tool-stop": "preserved",
      "invariant.tool-arguments": "preserved",
      "invariant.one-lifecycle": "preserved",
      "invariant.empty-content": "preserved",
      parallel_tool_calls: "no-equivalent",
      seed: "preserved",
      finish_reason: "preserved",
      "stream.terminal": "preserved",
      "stream.framing": "preserved",
    },
  },
  "chat-to-anthropic-non-stream-invented.json": {
    findings: {
      "messages[].content": "invented/empty-text",
      cache_control: "invented/cache-added",
      "tool_calls[].id": "invented",
      // The invented tool call sits in a reply that ends "stop" (issue 20 §3).
      "invariant.tool-stop": "mangled/no-tool-stop",
    },
  },
  "anthropic-one-sided-stream-tool-turn.json": {
    // Only the client's side: no request verdict, no upstream to compare; what the stream
    // shows alone (issue 20 §3).
    findings: {
      "invariant.tool-stop": "mangled/no-tool-stop",
      "invariant.tool-arguments": "mangled/invalid-arguments",
      "invariant.one-lifecycle": "invented/after-terminal",
    },
    clean: { "invariant.empty-content": "preserved" },
  },
  // Each holds what a reader reads as nothing; the invariant sees it (issue 20 §3).
  "anthropic-one-sided-stream-empty-text-block.json": {
    findings: { "invariant.empty-content": "invented/empty-text" },
    clean: { "invariant.tool-stop": "preserved", "invariant.block-lifecycle": "preserved" },
  },
  "chat-one-sided-non-stream-empty-content.json": {
    findings: { "invariant.empty-content": "invented/empty-text" },
    clean: { "invariant.tool-stop": "preserved", "invariant.tool-arguments": "preserved" },
  },
  "responses-one-sided-non-stream-phantom-item.json": {
    findings: { "invariant.empty-content": "invented/phantom-message" },
    clean: { "invariant.tool-stop": "preserved" },
  },
  "chat-to-responses-non-stream-no-client-response.json": {
    findings: {
      id: "error",
      text: "error",
      finish_reason: "error",
      "usage.input_tokens": "error",
      "usage.output_tokens": "error",
      "usage.cache_read_tokens": "error",
      "usage.reasoning_tokens": "error",
    },
    clean: { stop: "no-equivalent", seed: "no-equivalent" },
  },
};

function asExpected(v: Verdict): string {
  return v.cause ? `${v.verdict}/${v.cause}` : v.verdict;
}

function matches(v: Verdict, want: string): boolean {
  return want.includes("/") ? asExpected(v) === want : v.verdict === want;
}

describe("recorded exchanges", () => {
  it("has a reading for every fixture", () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));
    expect(files.sort()).toEqual(Object.keys(READINGS).sort());
  });

  for (const [name, reading] of Object.entries(READINGS)) {
    it(name, () => {
      const verdicts = judgeExchange(load(name));
      const findings = verdicts.filter((v) => !isClean(v.verdict));
      const got = Object.fromEntries(findings.map((v) => [v.field, asExpected(v)]));
      for (const [field, want] of Object.entries(reading.findings)) {
        const v = findings.find((f) => f.field === field);
        expect(v && matches(v, want), `${field}: want ${want}, got ${got[field]}`).toBe(true);
      }
      expect(findings.map((v) => v.field).sort()).toEqual(Object.keys(reading.findings).sort());
      for (const [field, want] of Object.entries(reading.clean ?? {})) {
        const v = verdicts.find((f) => f.field === field);
        expect(v && matches(v, want), `${field}: want ${want}, got ${v && asExpected(v)}`).toBe(
          true,
        );
      }
      for (const v of verdicts) {
        expect(v.reason.startsWith(`${v.field}: `), v.reason).toBe(true);
        expect(v.reason).toMatch(/→/);
      }
    });
  }

  it("covers every verdict kind the lens gives, in both directions and both modes", () => {
    const seen = new Set<string>();
    const modes = new Set<string>();
    for (const name of Object.keys(READINGS)) {
      const exchange = load(name);
      for (const v of judgeExchange(exchange)) {
        seen.add(`${v.direction} ${v.verdict}`);
        modes.add(`${exchange.mode} ${v.direction} ${isClean(v.verdict) ? "clean" : "finding"}`);
      }
    }
    // `not-run` belongs to the sweep (a gateway absent, a budget spent), never to the lens.
    const lensKinds = VERDICTS.filter((k) => k !== "not-run");
    for (const kind of lensKinds) {
      expect(seen.has(`request ${kind}`) || seen.has(`reply ${kind}`), kind).toBe(true);
    }
    for (const kind of ["preserved", "no-equivalent", "dropped", "mangled", "invented", "error"]) {
      expect(seen.has(`reply ${kind}`), `reply ${kind}`).toBe(true);
    }
    for (const kind of [
      "preserved",
      "no-equivalent",
      "dropped",
      "mangled",
      "invented",
      "leaked",
      "rejected",
    ]) {
      expect(seen.has(`request ${kind}`), `request ${kind}`).toBe(true);
    }
    expect(modes.size).toBe(8);
  });
});

describe("judgeField", () => {
  it("answers one field with the same verdict the full judgement gives", () => {
    const exchange = load("anthropic-to-chat-non-stream-lossy.json");
    const all = judgeExchange(exchange);
    for (const field of [
      "stop_sequences",
      "credentials.header.x-api-key",
      "path",
      "finish_reason",
      "headers.user-agent",
    ]) {
      expect(judgeField(exchange, field)).toEqual(all.find((v) => v.field === field));
    }
    expect(judgeExchange(exchange, { field: "top_k" })).toHaveLength(1);
  });

  it("says `error` for a field the client never sent, rather than guessing", () => {
    const exchange = load("anthropic-to-chat-non-stream-faithful.json");
    expect(judgeField(exchange, "top_k")).toMatchObject({
      verdict: "error",
      cause: "absent-in-source",
    });
    expect(judgeField(exchange, "stream.terminal")).toMatchObject({
      verdict: "error",
      direction: "reply",
    });
  });

  it("finds an invented reply feature the upstream never had", () => {
    const exchange = load("chat-to-anthropic-non-stream-invented.json");
    expect(judgeField(exchange, "tool_calls[].id").verdict).toBe("invented");
  });
});
