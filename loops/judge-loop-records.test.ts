/**
 * The judge read on records built by hand, as the mock keeps them: the cases a test double
 * cannot stage (the dialect a gateway spoke to the backend, ids the spoken dialect forbids,
 * what came back in a signature slot).
 */
import { expect, it } from "vitest";
import type { MockRecord } from "../mock-upstream/index.ts";
import { judgeLoop } from "./judge-loop.ts";
import {
  FINAL_TEXT,
  LOOP_TOOL,
  LOOP_VARIANTS,
  type LoopVariantId,
  toolCallId,
  toolResultText,
} from "./loop-script.ts";

type Json = Record<string, unknown>;
const variant = (id: LoopVariantId) => LOOP_VARIANTS.find((v) => v.id === id)!;

/** One forwarded record as the mock keeps it (what the judge reads), for the pure cases. */
function record(path: string, json: Json, reply: Json, dialect?: string): MockRecord {
  const body = JSON.stringify(json);
  return {
    seq: 0,
    receivedAt: "2026-12-02T00:00:00.000Z",
    listener: "test",
    request: { method: "POST", path, headers: [], body: { encoding: "utf8", data: body } },
    bodyBytes: body.length,
    reply: {
      status: 200,
      staged: true,
      headers: [],
      body: { encoding: "utf8", data: JSON.stringify(reply) },
    },
    ...(dialect ? { dialect } : {}),
  } as MockRecord;
}

const ollamaCall = {
  id: toolCallId("ollama", 0),
  function: { name: LOOP_TOOL.name, arguments: { city: "Paris" } },
};
const ollamaTask = { role: "user", content: "task" };
const ollamaAnswer = {
  model: "m",
  message: { role: "assistant", content: FINAL_TEXT },
  done: true,
};
const ollamaEcho = (result: Json) =>
  record(
    "/api/chat",
    {
      model: "m",
      messages: [ollamaTask, { role: "assistant", content: "", tool_calls: [ollamaCall] }, result],
    },
    ollamaAnswer,
  );
const ollamaLoop = (result: Json) =>
  judgeLoop({
    variant: variant("plain"),
    backend: "ollama",
    agent: {
      calls: [{ id: ollamaCall.id, name: LOOP_TOOL.name, arguments: { city: "Paris" } }],
      finalText: FINAL_TEXT,
    },
    forwarded: [
      record(
        "/api/chat",
        { model: "m", messages: [ollamaTask] },
        {
          model: "m",
          message: { role: "assistant", content: "", tool_calls: [ollamaCall] },
          done: true,
        },
      ),
      ollamaEcho(result),
    ],
  });

it("on a backend that links results by name, a result carrying only the call's id links by it", () => {
  const content = toolResultText(variant("plain"), 0);
  expect(ollamaLoop({ role: "tool", tool_call_id: ollamaCall.id, content })).toEqual({
    status: "completed",
    losses: [],
  });
  expect(ollamaLoop({ role: "tool", tool_name: LOOP_TOOL.name, content }).status).toBe("completed");
  expect(ollamaLoop({ role: "tool", tool_call_id: "call_other", content })).toMatchObject({
    status: "broke",
    turn: 2,
    cause: "id-lost",
  });
});

it("records are read in the dialect the gateway spoke to the backend, and a break says so", () => {
  const id = toolCallId("anthropic-messages", 0);
  const use = { type: "tool_use", id, name: LOOP_TOOL.name, input: { city: "Paris" } };
  const turnOne = record(
    "/anthropic/v1/messages",
    { model: "m", max_tokens: 9, messages: [{ role: "user", content: "task" }] },
    { type: "message", role: "assistant", content: [use], stop_reason: "tool_use" },
    "anthropic-messages",
  );
  const echo = (toolUseId: string) =>
    record(
      "/anthropic/v1/messages",
      {
        model: "m",
        max_tokens: 9,
        messages: [
          { role: "user", content: "task" },
          { role: "assistant", content: [use] },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: toolUseId, content: "Paris: sunny, 21 degrees" },
            ],
          },
        ],
      },
      { type: "message", role: "assistant", content: [{ type: "text", text: FINAL_TEXT }] },
      "anthropic-messages",
    );
  const judged = (toolUseId: string) =>
    judgeLoop({
      variant: variant("plain"),
      backend: "openai-chat",
      agent: {
        calls: [{ id, name: LOOP_TOOL.name, arguments: { city: "Paris" } }],
        finalText: FINAL_TEXT,
      },
      forwarded: [turnOne, echo(toolUseId)],
    });
  expect(judged(id)).toEqual({ status: "completed", losses: [] });
  // A persona's listener does not name the dialect: the path's tail does.
  const unnamed = (r: MockRecord): MockRecord => {
    const { dialect: _named, ...rest } = r;
    return rest;
  };
  expect(
    judgeLoop({
      variant: variant("plain"),
      backend: "openai-chat",
      agent: {
        calls: [{ id, name: LOOP_TOOL.name, arguments: { city: "Paris" } }],
        finalText: FINAL_TEXT,
      },
      forwarded: [unnamed(turnOne), unnamed(echo(id))],
    }),
  ).toEqual({ status: "completed", losses: [] });
  const lost = judged("toolu_other");
  expect(lost).toMatchObject({ status: "broke", turn: 2, cause: "id-lost" });
  if (lost.status === "broke") {
    expect(lost.reason).toContain(
      "the gateway sent this route's requests to the backend's anthropic-messages endpoint /anthropic/v1/messages, not openai-chat",
    );
  }
});

it("ids the spoken dialect forbids, sent back in its form and linked in the echo, are not the gateway's loss", () => {
  // The route's backend is Chat, so the mock issued a Chat-style id; the gateway spoke
  // Anthropic's dialect (LiteLLM's DeepSeek Messages endpoint), whose ids allow no `.:|=`.
  const chatId = toolCallId("openai-chat", 0);
  const fitted = chatId.replace(/[^a-zA-Z0-9_-]/g, "_");
  const use = (id: string) => ({
    type: "tool_use",
    id,
    name: LOOP_TOOL.name,
    input: { city: "Paris" },
  });
  const turnOne = record(
    "/anthropic/v1/messages",
    { model: "m", max_tokens: 9, messages: [{ role: "user", content: "task" }] },
    { type: "message", role: "assistant", content: [use(chatId)], stop_reason: "tool_use" },
    "anthropic-messages",
  );
  const echo = (callId: string, resultId: string) =>
    record(
      "/anthropic/v1/messages",
      {
        model: "m",
        max_tokens: 9,
        messages: [
          { role: "user", content: "task" },
          { role: "assistant", content: [use(callId)] },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: resultId, content: "Paris: sunny, 21 degrees" },
            ],
          },
        ],
      },
      { type: "message", role: "assistant", content: [{ type: "text", text: FINAL_TEXT }] },
      "anthropic-messages",
    );
  const judged = (callId: string, resultId: string) =>
    judgeLoop({
      variant: variant("plain"),
      backend: "openai-chat",
      agent: {
        calls: [{ id: chatId, name: LOOP_TOOL.name, arguments: { city: "Paris" } }],
        finalText: FINAL_TEXT,
      },
      forwarded: [turnOne, echo(callId, resultId)],
    });
  const fine = judged(fitted, fitted);
  expect(fine.status).toBe("completed");
  expect(fine.losses).toEqual([
    `the backend's call ids ${JSON.stringify([chatId])} are not of the form /^[a-zA-Z0-9_-]+$/ that the anthropic-messages dialect the gateway spoke requires (the mock issued them in openai-chat's style); they came back as ${JSON.stringify([fitted])}, of that form, each result answering the call it follows: not judged as an id the gateway lost`,
  ]);
  // A result that answers another call than the one it follows is still lost.
  expect(judged(fitted, "toolu_other")).toMatchObject({ status: "broke", cause: "id-lost" });
  // On the route's own dialect the id rule does not apply: a rewrite is lost.
  expect(
    judgeLoop({
      variant: variant("plain"),
      backend: "anthropic-messages",
      agent: {
        calls: [{ id: chatId, name: LOOP_TOOL.name, arguments: { city: "Paris" } }],
        finalText: FINAL_TEXT,
      },
      forwarded: [turnOne, echo(fitted, fitted)],
    }),
  ).toMatchObject({ status: "broke", cause: "id-lost" });
});

it("a signature-lost break says what came back in the slot (another part's signature, or none)", () => {
  // claude-code-router to Gemini: the function call came back with the thought part's signature.
  const id = toolCallId("gemini", 0);
  const call = { name: LOOP_TOOL.name, args: { city: "Paris" }, id };
  const thought = "EqQBCkgIARABGAIiQL+/thought-part==";
  const callSig = "CiQBjz1rX+function-call==";
  const path = "/v1beta/models/m:generateContent";
  const task = { role: "user", parts: [{ text: "task" }] };
  const turnOne = record(
    path,
    { contents: [task] },
    {
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "thinking", thought: true, thoughtSignature: thought },
              { functionCall: call, thoughtSignature: callSig },
            ],
          },
          finishReason: "STOP",
        },
      ],
    },
    "gemini",
  );
  const echo = (signature?: string) =>
    record(
      path,
      {
        contents: [
          task,
          {
            role: "model",
            parts: [{ functionCall: call, ...(signature ? { thoughtSignature: signature } : {}) }],
          },
          {
            role: "user",
            parts: [
              {
                functionResponse: {
                  name: LOOP_TOOL.name,
                  response: { result: "Paris: sunny, 21 degrees" },
                },
              },
            ],
          },
        ],
      },
      { candidates: [{ content: { role: "model", parts: [{ text: FINAL_TEXT }] } }] },
      "gemini",
    );
  const judged = (signature?: string) =>
    judgeLoop({
      variant: variant("plain"),
      backend: "gemini",
      agent: {
        calls: [{ id, name: LOOP_TOOL.name, arguments: { city: "Paris" } }],
        finalText: FINAL_TEXT,
      },
      forwarded: [turnOne, echo(signature)],
    });
  const swapped = judged(thought);
  expect(swapped).toMatchObject({ status: "broke", turn: 2, cause: "signature-lost" });
  if (swapped.status === "broke") {
    expect(swapped.reason).toContain(
      "(the lookup_weather call came back with EqQBCkgIARABGAIi… for CiQBjz1rX+functi…)",
    );
  }
  const none = judged();
  if (none.status === "broke") {
    expect(none.reason).toContain(
      "(the lookup_weather call came back without one (sent: CiQBjz1rX+functi…))",
    );
  }
  expect(none.status).toBe("broke");
  expect(judged(callSig).status).toBe("completed");
  // any-llm to Gemini: Google's documented stand-in in the call's slot is accepted, not refused.
  const standIn = judged("skip_thought_signature_validator");
  expect(standIn.status).toBe("completed");
  expect(standIn.losses).toContain(
    `the function call's thoughtSignature did not come back to the backend (the gateway put "skip_thought_signature_validator" in its place, a stand-in the provider documents as accepted (https://ai.google.dev/gemini-api/docs/thought-signatures): no refusal, the reasoning context is lost)`,
  );
});
