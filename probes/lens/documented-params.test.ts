/**
 * Documented request parameters (issue 20 §2): the ones modelled as attributes (logprobs,
 * top_logprobs, prediction, context_management) judged through real readers and writers from
 * their field-table rows alone, and a client key no attribute models judged against the
 * target's absent rows (`extras.<key>`) before it is called dropped.
 */
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../dialects/dialect.ts";
import { readRequest, writeRequest } from "../../dialects/request.ts";
import { judge, only, req } from "./testing/request-pairs.ts";

const BODY = { model: "m", messages: [{ role: "user", content: "hi" }] };
const RESPONSES_BODY = { model: "m", input: "hi" };
const GEMINI_PATH = { path: "/v1beta/models/m:generateContent" };

/** The client request read, written to `backend` by the writers, read back and judged. */
function throughWriters(client: ReturnType<typeof readRequest>, backend: Dialect) {
  const written = writeRequest(backend, client);
  const forwarded = readRequest(
    backend,
    written.body,
    backend === "gemini" ? GEMINI_PATH : undefined,
  );
  return { written, verdicts: judge(client, forwarded) };
}

describe("a client key no attribute models consults the target's absent rows", () => {
  const link = "resp_PREVPROBE0123";
  const client = readRequest("openai-responses", { ...RESPONSES_BODY, previous_response_id: link });

  it("is no-equivalent, with the row's reason, where the target has no such field", () => {
    expect(client.extras).toEqual({ previous_response_id: link });
    expect(only(judge(client, req("anthropic-messages")), "previous_response_id")).toMatchObject({
      subject: "extras.previous_response_id",
      verdict: "no-equivalent",
      reason: `previous_response_id: "${link}" → absent (anthropic-messages: Messages keeps no responses: nothing to store or continue from)`,
    });
    for (const backend of ["openai-chat", "gemini", "ollama"] as const) {
      expect(only(judge(client, req(backend)), "previous_response_id").verdict).toBe(
        "no-equivalent",
      );
    }
  });

  it("is mangled (foreign-key) when passed on under the key the target does not define", () => {
    const forwarded = req("openai-chat", { extras: { previous_response_id: link } });
    expect(only(judge(client, forwarded), "previous_response_id")).toMatchObject({
      verdict: "mangled",
      cause: "foreign-key",
    });
  });

  it("is judged by value where the target defines the key", () => {
    const dropped = judge(client, req("openai-responses"));
    expect(only(dropped, "previous_response_id").verdict).toBe("dropped");
    const kept = req("openai-responses", { extras: { previous_response_id: link } });
    expect(only(judge(client, kept), "previous_response_id").verdict).toBe("preserved");
  });

  it("names the key among what a writer to another dialect leaves out", () => {
    const written = writeRequest("gemini", client);
    expect(written.omitted.map((o) => o.subject)).toContain("extras.previous_response_id");
    expect(writeRequest("openai-responses", client).omitted).toEqual([]);
  });

  it("an undocumented key has no row: dropped as before", () => {
    const odd = readRequest("openai-chat", { ...BODY, x_probe: 1 });
    expect(only(judge(odd, req("anthropic-messages")), "x_probe").verdict).toBe("dropped");
  });
});

describe("verbosity", () => {
  it("is Chat verbosity and Responses text.verbosity, no-equivalent elsewhere", () => {
    const client = readRequest("openai-chat", { ...BODY, verbosity: "low" });
    expect(client).toMatchObject({ verbosity: "low", extras: {} });
    const responses = throughWriters(client, "openai-responses");
    expect(responses.written.body.text).toEqual({ verbosity: "low" });
    expect(only(responses.verdicts, "verbosity").verdict).toBe("preserved");
    expect(only(judge(client, req("openai-responses")), "verbosity").verdict).toBe("dropped");
    for (const backend of ["anthropic-messages", "gemini", "ollama"] as const) {
      expect(only(throughWriters(client, backend).verdicts, "verbosity").verdict).toBe(
        "no-equivalent",
      );
    }
    const back = readRequest("openai-responses", {
      ...RESPONSES_BODY,
      text: { verbosity: "high" },
    });
    expect(back).toMatchObject({ verbosity: "high", extras: {} });
    expect(throughWriters(back, "openai-chat").written.body.verbosity).toBe("high");
  });
});

describe("store", () => {
  it("is carried between Chat and Responses by value, no-equivalent where nothing is stored", () => {
    const client = readRequest("openai-chat", { ...BODY, store: false });
    expect(client).toMatchObject({ store: false, extras: {} });
    const responses = throughWriters(client, "openai-responses");
    expect(responses.written.body.store).toBe(false);
    expect(only(responses.verdicts, "store").verdict).toBe("preserved");
    // Responses stores by default: store: false left out changes what happens.
    expect(only(judge(client, req("openai-responses")), "store").verdict).toBe("dropped");
    for (const backend of ["anthropic-messages", "gemini", "ollama"] as const) {
      expect(only(throughWriters(client, backend).verdicts, "store").verdict).toBe("no-equivalent");
    }
  });
});

describe("logprobs and top_logprobs", () => {
  const client = readRequest("openai-chat", { ...BODY, logprobs: true, top_logprobs: 3 });

  it("reads Chat's pair as attributes, not extras", () => {
    expect(client).toMatchObject({ logprobs: true, topLogprobs: 3, extras: {} });
  });

  it("reaches Responses as an include entry and top_logprobs, Gemini and Ollama by their keys", () => {
    const responses = throughWriters(client, "openai-responses");
    expect(responses.written.body).toMatchObject({
      include: ["message.output_text.logprobs"],
      top_logprobs: 3,
    });
    const gemini = throughWriters(client, "gemini");
    expect(gemini.written.body).toMatchObject({
      generationConfig: { responseLogprobs: true, logprobs: 3 },
    });
    const ollama = throughWriters(client, "ollama");
    expect(ollama.written.body).toMatchObject({ logprobs: true, top_logprobs: 3 });
    for (const { verdicts } of [responses, gemini, ollama, throughWriters(client, "openai-chat")]) {
      expect(only(verdicts, "logprobs")).toMatchObject({
        subject: "logprobs",
        verdict: "preserved",
      });
      expect(only(verdicts, "top_logprobs")).toMatchObject({
        subject: "top-logprobs",
        verdict: "preserved",
      });
    }
  });

  it("is no-equivalent on Anthropic, dropped where the backend has the field", () => {
    const anthropic = throughWriters(client, "anthropic-messages");
    expect(anthropic.written.omitted.map((o) => o.subject)).toEqual(
      expect.arrayContaining(["logprobs", "top-logprobs"]),
    );
    expect(only(anthropic.verdicts, "logprobs").verdict).toBe("no-equivalent");
    expect(only(anthropic.verdicts, "top_logprobs").verdict).toBe("no-equivalent");
    const bare = readRequest("gemini", { contents: [] }, GEMINI_PATH);
    expect(only(judge(client, bare), "logprobs").verdict).toBe("dropped");
    expect(only(judge(client, bare), "top_logprobs").verdict).toBe("dropped");
  });

  it("logprobs: false left out is the default, not a loss", () => {
    const off = readRequest("openai-chat", { ...BODY, logprobs: false });
    expect(only(judge(off, req("gemini")), "logprobs").verdict).toBe("preserved");
  });

  it("reads Responses' include entry as the flag; other entries stay raw beside it", () => {
    const alone = readRequest("openai-responses", {
      ...RESPONSES_BODY,
      include: ["message.output_text.logprobs"],
    });
    expect(alone).toMatchObject({ logprobs: true, extras: {} });
    const body = {
      ...RESPONSES_BODY,
      include: ["reasoning.encrypted_content", "message.output_text.logprobs"],
    };
    const both = readRequest("openai-responses", body);
    expect(both.logprobs).toBe(true);
    expect(both.extras.include).toEqual(body.include);
    expect(writeRequest("openai-responses", both).body).toEqual(body);
    const toChat = throughWriters(both, "openai-chat").verdicts;
    expect(only(toChat, "include[message.output_text.logprobs]")).toMatchObject({
      subject: "logprobs",
      verdict: "preserved",
    });
    // The whole list is judged too: reasoning.encrypted_content has no place in Chat.
    expect(only(toChat, "include").verdict).toBe("no-equivalent");
  });
});

describe("prediction and context_management", () => {
  it("prediction: by value on Chat, no-equivalent on the four others", () => {
    const prediction = { type: "content", content: "PREDICTPROBE" };
    const client = readRequest("openai-chat", { ...BODY, prediction });
    expect(client).toMatchObject({ prediction, extras: {} });
    expect(only(throughWriters(client, "openai-chat").verdicts, "prediction").verdict).toBe(
      "preserved",
    );
    expect(only(judge(client, req("openai-chat")), "prediction").verdict).toBe("dropped");
    for (const backend of ["openai-responses", "anthropic-messages", "gemini", "ollama"] as const) {
      const { written, verdicts } = throughWriters(client, backend);
      expect(written.omitted.map((o) => o.subject)).toContain("prediction");
      expect(only(verdicts, "prediction").verdict, backend).toBe("no-equivalent");
    }
  });

  it("context_management: by value on Anthropic, no-equivalent elsewhere, foreign under Responses' key", () => {
    const edits = { edits: [{ type: "clear_tool_uses_20250919" }] };
    const client = readRequest("anthropic-messages", {
      ...BODY,
      max_tokens: 64,
      context_management: edits,
    });
    expect(client).toMatchObject({ contextManagement: edits, extras: {} });
    const native = throughWriters(client, "anthropic-messages").verdicts;
    expect(only(native, "context_management").verdict).toBe("preserved");
    for (const backend of ["openai-chat", "openai-responses", "gemini", "ollama"] as const) {
      const { verdicts } = throughWriters(client, backend);
      expect(only(verdicts, "context_management").verdict, backend).toBe("no-equivalent");
    }
    // Responses' own context_management takes compaction entries: Anthropic's edits object
    // passed on there is a value Responses does not read.
    const passed = req("openai-responses", { extras: { context_management: edits } });
    expect(only(judge(client, passed), "context_management")).toMatchObject({
      verdict: "mangled",
      cause: "foreign-key",
    });
  });
});
