/**
 * Exchanges recorded from real gateways (Portkey 1.15.2, claude-code-router 2.0.0, installed
 * from npm) against the gatecheck mock on 2026-11-30, extracted from sweep databases with
 * `gatecheck export`, credentials redacted by the recorder. Each expectation is what
 * the bytes show, read by hand before the lens was asked:
 *
 * - ccr → Chat, disable_parallel_tool_use: forwarded `"tool_choice":"auto"` and no
 *   `parallel_tool_calls` at all.
 * - ccr → Chat, base64 image: forwarded as an `image_url` data URL but with a stray
 *   `"media_type"` key in the part, a key Chat does not define: the image arrived as an image,
 *   the key beside it is an addition (issue 20: an extra key does not void a structure).
 * - ccr → Gemini: `"generationConfig":{}`, so max_tokens and stop_sequences are gone; in the
 *   stream, Gemini's usageMetadata (12 in, 9 out) reaches the client as 0 and 0.
 * - ccr → Chat, tool_result id: the tool_use becomes a Chat `tool_calls` entry with id
 *   `toolu_01RESULTID`, the result a `role:"tool"` message with the same `tool_call_id` and
 *   content "18C"; both tools' schemas arrive unchanged as `parameters`. The assistant turn
 *   arrives as `"content":""` beside its `tool_calls`: an empty text the client never sent,
 *   where Chat's content is optional (issue 20, additions).
 * - ccr → Chat, top_k 7: absent downstream; Chat Completions has no top_k (its create
 *   reference lists temperature and top_p only), so nothing could carry it.
 * - ccr → Gemini, tool_use history: the model turn arrives as `[{"text":""},{"functionCall":
 *   {"id":"toolu_01PROBE",...}}]` (an empty text part the client never sent); the
 *   functionResponse carries no `id`, so the result no longer names the call it answers
 *   (Gemini: FunctionResponse.id "populated by the client to match the corresponding function
 *   call id"); `generationConfig` is `{}`, so max_tokens is gone.
 * - ccr → Gemini, thinking in history: the thinking text THINKPROBE-9021 is gone, but its
 *   signature arrives verbatim as `thoughtSignature`, on an empty text part (the thinking
 *   block's shell) and again on the functionCall; `thinking` becomes
 *   `"thinkingConfig":{"includeThoughts":true}` with no budget; max_tokens absent.
 * - ccr → Gemini, SAFETY: the upstream candidate says `"finishReason":"SAFETY"`, the client
 *   gets `"stop_reason":"end_turn"`, a natural stop; max_tokens again absent.
 * - ccr, Anthropic → Anthropic: the client's Azure-style `api-key: [REDACTED:93503661]` header
 *   is forwarded verbatim; the client's own `x-api-key` (09c785fd) is replaced by the
 *   configured provider key (ac6c43e5), so that one did not travel.
 * - Portkey, Anthropic → Anthropic: the client's `authorization: Bearer [REDACTED:09c785fd]`
 *   is forwarded as `x-api-key: [REDACTED:09c785fd]`, the same secret. Portkey is built to
 *   pass the caller's key through; by the lens's rule (a client credential reached the
 *   backend) it is a leak, and the sweep is where a pass-through gateway gets that context.
 *   Every Portkey exchange below shows the same forwarding. Every Chat → Anthropic one also
 *   carries `"system":[]`, a key the Chat client never sent (no system message): invented,
 *   cause empty-added (issue 20, additions).
 * - Portkey, stream: the upstream streamed a good reply and Portkey answered 500
 *   `{"status":"failure","message":"Something went wrong"}`: a loud refusal.
 * - Portkey, Chat → Anthropic, tool_choice "required": forwarded `{"type":"any"}`, the same
 *   meaning; each tool's `"additionalProperties":false` is gone from `input_schema` (and an
 *   empty `"$defs":{}` added), so the schema now admits extra keys.
 * - Portkey, Chat → Anthropic, seed 424242: absent; Messages has no seed parameter.
 * - Portkey, Chat → Anthropic, parallel_tool_calls false: absent, though Anthropic spells it
 *   `tool_choice.disable_parallel_tool_use`; the schemas lose additionalProperties as above.
 * - Portkey, Chat → Anthropic, parameters `{"type":"object","properties":{}}`: forwarded with
 *   `"required":[]` and `"$defs":{}` added, keys the client never wrote.
 * - Portkey locked (its own lockfile's versions), stream: the same Anthropic stream passes
 *   through event for event: stop_sequences, text, end_turn, usage 12/9, message_stop.
 * - Portkey locked, Chat → Anthropic stream of two tool_use blocks whose input_json_delta
 *   fragments interleave (index 0 and 1): every fragment reaches the client under tool_calls
 *   index 1, so call_IL_A's arguments stay "" and call_IL_B's read
 *   `{"ci{"zoty":ne":"Par"CETis"}"}`; the upstream's `stop_reason:"tool_use"` never arrives
 *   (every chunk has `finish_reason:null`).
 * - Portkey, Chat → Anthropic, an assistant turn `{"content":null,"refusal":"REFUSEPROBE ..."}`:
 *   arrives as `{"role":"assistant","content":[]}`, the refusal text gone, the turn emptied.
 * - Portkey, Chat → Anthropic, `"stop":"STOPPROBE"`: forwarded as `"stop_sequences":"STOPPROBE"`,
 *   a string where Anthropic requires an array of strings: present, in the wrong shape.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExchangeText } from "../exchange.ts";
import { isClean, VERDICTS, type Verdict } from "../verdict.ts";
import { judgeExchange } from "./judge-exchange.ts";

const REAL = join(import.meta.dirname, "fixtures", "real");

interface Reading {
  gateway: "portkey" | "claude-code-router" | "litellm" | "musistudio-llms";
  /** The verdict the bytes show per field (`verdict` or `verdict/cause`). Every non-clean
   * verdict the lens gives must be here or in `disputed`. */
  read: Record<string, string>;
  /** Fields where the lens's answer and the bytes disagree: what the bytes show. Kept out of
   * the assertion (never the lens's answer written as the expectation). */
  disputed?: Record<string, string>;
}

const READINGS: Record<string, Reading> = {
  "claude-code-router-am-disable-parallel-tool-use-openai-chat-stream.json": {
    gateway: "claude-code-router",
    read: { "tool_choice.disable_parallel_tool_use": "dropped" },
  },
  // The upstream interleaves two calls' argument fragments (Chat, by index); the Anthropic stream
  // stops block 0 before any of its fragments, then sends them all for index 0 after that stop.
  // As of its stop, get_weather's input is empty (issue 20 §2, each block's lifecycle).
  "claude-code-router-am-stream-interleaved-tool-fragments-openai-chat-stream.json": {
    gateway: "claude-code-router",
    read: {
      "tool_calls[].arguments": "mangled",
      "stream.framing": "mangled/malformed-events",
      "invariant.tool-arguments": "mangled/invalid-arguments",
      "invariant.block-lifecycle": "invented/after-block-stop",
    },
  },
  "claude-code-router-am-image-base64-openai-chat-non-stream.json": {
    gateway: "claude-code-router",
    read: { "messages[].content[].image": "invented/part-keys-added" },
  },
  "claude-code-router-am-stop-sequences-gemini-non-stream.json": {
    gateway: "claude-code-router",
    read: { max_tokens: "dropped", stop_sequences: "dropped" },
  },
  "claude-code-router-am-stop-sequences-gemini-stream.json": {
    gateway: "claude-code-router",
    read: {
      max_tokens: "dropped",
      stop_sequences: "dropped",
      "usage.input_tokens": "mangled",
      "usage.output_tokens": "mangled",
    },
  },
  "claude-code-router-am-tool-result-id-openai-chat-non-stream.json": {
    gateway: "claude-code-router",
    read: {
      "messages[].content[].text": "invented/empty-text",
      "messages[].content[].id": "preserved",
      "messages[].content[].tool_use_id": "preserved",
      "messages[].content[].tool_result": "preserved",
      "tools[].input_schema": "preserved",
      max_tokens: "preserved",
      finish_reason: "preserved",
    },
  },
  "claude-code-router-am-top-k-openai-chat-non-stream.json": {
    gateway: "claude-code-router",
    read: { top_k: "no-equivalent", max_tokens: "preserved" },
  },
  "claude-code-router-am-tool-use-input-gemini-non-stream.json": {
    gateway: "claude-code-router",
    read: {
      "messages[].content[].text": "invented/empty-text",
      // The functionResponse carries no id: absent, where Gemini defines one (issue 20).
      "messages[].content[].tool_use_id": "dropped",
      "messages[].content[].input": "preserved",
      max_tokens: "dropped",
      // The tool_use id arrives unchanged as functionCall.id "toolu_01PROBE"; the lost id
      // is the result's, judged under tool_use_id.
      "messages[].content[].id": "preserved",
      // "RESULTPROBE" arrives as functionResponse.response {"result":"RESULTPROBE"}: the text,
      // inside a key the Gemini API reference allows for function output.
      "messages[].content[].tool_result": "preserved/wrapped",
    },
  },
  "claude-code-router-am-thinking-history-gemini-non-stream.json": {
    gateway: "claude-code-router",
    read: {
      "messages[].content[].thinking": "dropped",
      "thinking.budget_tokens": "dropped",
      "messages[].content[].tool_use_id": "dropped",
      max_tokens: "dropped",
      // The signature arrives verbatim as thoughtSignature on both model parts.
      "messages[].content[].signature": "preserved",
      // The empty text part is the thinking block's shell, carrying its thoughtSignature; the
      // only text the client sent (the user's question) arrives.
      "messages[].content[].text": "preserved",
      // Carried as "thinkingConfig":{"includeThoughts":true}; only the budget is lost.
      "thinking.type": "preserved",
      // The tool_use id arrives unchanged as functionCall.id "toolu_01THINK".
      "messages[].content[].id": "preserved",
      // "18C" arrives as functionResponse.response {"result":"18C"}.
      "messages[].content[].tool_result": "preserved/wrapped",
    },
  },
  "claude-code-router-am-credential-api-key-anthropic-messages-non-stream.json": {
    gateway: "claude-code-router",
    read: {
      "credentials.header.api-key": "leaked",
      "credentials.header.x-api-key": "preserved",
    },
  },
  "claude-code-router-am-reply-finish-content-filter-gemini-non-stream.json": {
    gateway: "claude-code-router",
    read: {
      finish_reason: "mangled/erased-safety",
      text: "preserved",
      max_tokens: "dropped",
    },
  },
  "portkey-am-stop-sequences-anthropic-messages-non-stream.json": {
    gateway: "portkey",
    read: { "credentials.header.authorization": "leaked", stop_sequences: "preserved" },
  },
  "portkey-am-stop-sequences-anthropic-messages-stream.json": {
    gateway: "portkey",
    read: {
      "credentials.header.authorization": "leaked",
      id: "rejected",
      text: "rejected",
      finish_reason: "rejected",
      "usage.input_tokens": "rejected",
      "usage.output_tokens": "rejected",
      "usage.cache_read_tokens": "rejected",
      "usage.cache_write_tokens": "rejected",
      "stream.terminal": "rejected",
      "stream.framing": "rejected",
    },
  },
  "portkey-locked-am-stop-sequences-anthropic-messages-stream.json": {
    gateway: "portkey",
    read: {
      "credentials.header.authorization": "leaked",
      stop_sequences: "preserved",
      text: "preserved",
      finish_reason: "preserved",
      "usage.input_tokens": "preserved",
      "usage.output_tokens": "preserved",
      "stream.terminal": "preserved",
    },
  },
  "portkey-locked-oc-stream-interleaved-tool-fragments-anthropic-messages-stream.json": {
    gateway: "portkey",
    read: {
      // The client's stream alone shows both (issue 20 §3): no finish_reason at all, and
      // arguments that are not JSON ("" and the interleaved text).
      "invariant.tool-stop": "dropped/no-tool-stop",
      "invariant.tool-arguments": "mangled/invalid-arguments",
      "messages[role=system]": "invented/empty-added",
      "tool_calls[].arguments": "mangled",
      "tool_calls[].id": "preserved",
      "tool_calls[].name": "preserved",
      finish_reason: "dropped",
      "tools[].function.parameters": "mangled/schema-changed",
      "credentials.header.authorization": "leaked",
      "stream.terminal": "preserved",
    },
  },
  "portkey-oc-tool-choice-required-anthropic-messages-non-stream.json": {
    gateway: "portkey",
    read: {
      "messages[role=system]": "invented/empty-added",
      tool_choice: "preserved",
      "tools[].function.parameters": "mangled/schema-changed",
      "credentials.header.authorization": "leaked",
    },
  },
  // The client opts out of strict OpenAI compliance (x-portkey-strict-open-ai-compliance:
  // false): Portkey sends the thinking block, signature and all, in message.content_blocks
  // (a stream: delta.content_blocks), its documented carrier, and the raw end_turn as the
  // finish_reason, which no Chat client reads as "stop".
  "portkey-oc-reply-thinking-signature-strict-compliance-off-anthropic-messages-non-stream.json": {
    gateway: "portkey",
    read: {
      thinking: "preserved",
      "thinking.signature": "preserved",
      finish_reason: "mangled",
      "messages[role=system]": "invented/empty-added",
      "credentials.header.authorization": "leaked",
    },
  },
  "portkey-locked-oc-reply-thinking-signature-strict-compliance-off-anthropic-messages-stream.json":
    {
      gateway: "portkey",
      read: {
        thinking: "preserved",
        "thinking.signature": "preserved",
        finish_reason: "mangled",
        "messages[role=system]": "invented/empty-added",
        "credentials.header.authorization": "leaked",
      },
    },
  // From Gemini the same carrier holds the thought without its thoughtSignature: the carrier
  // has a place for the signature (it holds Anthropic's), so the signature is dropped.
  "portkey-oc-reply-thinking-signature-strict-compliance-off-gemini-non-stream.json": {
    gateway: "portkey",
    read: {
      thinking: "preserved",
      "thinking.signature": "dropped",
      finish_reason: "mangled",
      "credentials.header.authorization": "leaked",
    },
  },
  // Exported from the default sweep of 2 Dec 07:07. LiteLLM 1.96.2 answers Ollama's good reply
  // to a Chat request holding a PDF with a 500 whose message is a Python traceback through its
  // venv's site-packages (its token counter cannot count a file part); @musistudio/llms 1.0.53
  // answers an upstream 429 with the upstream's error inside its own, followed by four
  // JavaScript stack frames into its node_modules. Neither upstream body held any of it.
  "litellm-oc-file-pdf-ollama-non-stream.json": {
    gateway: "litellm",
    read: {
      "messages[].content[].file": "no-equivalent",
      text: "rejected",
      finish_reason: "rejected",
      "usage.input_tokens": "rejected",
      "usage.output_tokens": "rejected",
      "error.internals": "invented/internals",
    },
  },
  "musistudio-llms-am-error-429-openai-chat-non-stream.json": {
    gateway: "musistudio-llms",
    read: {
      "error.type": "mangled",
      "error.internals": "invented/internals",
    },
  },
  "portkey-oc-seed-anthropic-messages-non-stream.json": {
    gateway: "portkey",
    read: {
      "messages[role=system]": "invented/empty-added",
      seed: "no-equivalent",
      "credentials.header.authorization": "leaked",
    },
  },
  "portkey-oc-parallel-tool-calls-false-anthropic-messages-non-stream.json": {
    gateway: "portkey",
    read: {
      "messages[role=system]": "invented/empty-added",
      parallel_tool_calls: "dropped",
      "tools[].function.parameters": "mangled/schema-changed",
      "credentials.header.authorization": "leaked",
    },
  },
  "portkey-oc-tools-parameters-empty-anthropic-messages-non-stream.json": {
    gateway: "portkey",
    read: {
      "messages[role=system]": "invented/empty-added",
      "tools[].function.parameters": "invented/schema-additions",
      "credentials.header.authorization": "leaked",
    },
  },
  "portkey-oc-assistant-refusal-history-anthropic-messages-non-stream.json": {
    gateway: "portkey",
    read: {
      "messages[role=system]": "invented/empty-added",
      "messages[].refusal": "dropped",
      "credentials.header.authorization": "leaked",
      // The client's own assistant turn arrives emptied (content []); no message was added.
      messages: "dropped",
    },
  },
  "portkey-oc-stop-string-anthropic-messages-non-stream.json": {
    gateway: "portkey",
    read: {
      "messages[role=system]": "invented/empty-added",
      "credentials.header.authorization": "leaked",
      finish_reason: "preserved",
      // Sent as "stop_sequences":"STOPPROBE", a string where Anthropic requires an array.
      stop: "mangled",
    },
  },
};

function judged(name: string): Verdict[] {
  return judgeExchange(parseExchangeText(readFileSync(join(REAL, name), "utf8"), name));
}

/** The lens's answer in the reading's shape (`verdict/cause` only where the reading has one). */
function shown(verdict: Verdict, reading: string | undefined): string {
  return reading?.includes("/") && verdict.cause
    ? `${verdict.verdict}/${verdict.cause}`
    : verdict.verdict;
}

describe("exchanges recorded from real gateways", () => {
  for (const [name, reading] of Object.entries(READINGS)) {
    it(name, () => {
      const verdicts = judged(name);
      const byField = new Map(verdicts.map((v) => [v.field, v]));
      const got = Object.fromEntries(
        Object.entries(reading.read).map(([field, want]) => {
          const v = byField.get(field);
          return [field, v ? shown(v, want) : "not judged"];
        }),
      );
      expect(got).toEqual(reading.read);
      // Any other finding is one nobody has read in these bytes yet.
      const unread = verdicts
        .filter((v) => !isClean(v.verdict))
        .filter((v) => !(v.field in reading.read) && !(v.field in (reading.disputed ?? {})))
        .map((v) => `${v.field}: ${v.verdict} (${v.reason})`);
      expect(unread).toEqual([]);
    });
  }

  it("reads an image with a stray key beside it as the image, carried (claude-code-router)", () => {
    const verdicts = judged("claude-code-router-am-image-base64-openai-chat-non-stream.json");
    const image = verdicts.filter((v) => v.field === "messages[].content[].image");
    expect(image.map((v) => `${v.verdict}/${v.cause ?? ""}`)).toEqual([
      "preserved/",
      "invented/part-keys-added",
    ]);
    expect(image[1]?.reason).toBe(
      'messages[].content[].image: absent → media_type "image/png" beside an image',
    );
  });

  it("keeps stop_sequences where the gateway carried them (Portkey, same dialect)", () => {
    const verdicts = judged("portkey-am-stop-sequences-anthropic-messages-non-stream.json");
    expect(verdicts.find((v) => v.field === "stop_sequences")?.reason).toBe(
      'stop_sequences: ["STOPPROBE"] → ["STOPPROBE"]',
    );
  });

  it("has a reading for every verdict an exchange can show, from each gateway that shows it", () => {
    // error and not-run are not read from bytes: error is the lens unable to decide, not-run a
    // cell the sweep never ran. claude-code-router never refused a request in the sweep.
    const exchangeKinds = VERDICTS.filter((k) => k !== "error" && k !== "not-run");
    const kindsOf = (gateway: Reading["gateway"]) =>
      new Set(
        Object.values(READINGS)
          .filter((r) => r.gateway === gateway)
          .flatMap((r) => Object.values(r.read).map((v) => v.split("/")[0])),
      );
    expect([...kindsOf("portkey")].sort()).toEqual([...exchangeKinds].sort());
    expect([...kindsOf("claude-code-router")].sort()).toEqual(
      exchangeKinds.filter((k) => k !== "rejected").sort(),
    );
  });
});
