/**
 * The strict providers' listeners: DeepSeek's also serves its Anthropic-compatible API under
 * `/anthropic` (where LiteLLM 1.96.2 sends a Messages client's requests), as Messages, while
 * its Chat API stays at the base URL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";
import { backendMountOf, type ColumnMocks, startPersonaMocks } from "./persona-mocks.ts";

const root = mkdtempSync(join(tmpdir(), "gatecheck-persona-mocks-"));
let main: MockHandle;
let mocks: ColumnMocks;

beforeAll(async () => {
  main = await startMock();
  mocks = await startPersonaMocks("litellm@1.96.2", root, [{ persona: "deepseek" }], main);
});

afterAll(async () => {
  await mocks.close();
  await main.close();
  rmSync(root, { recursive: true, force: true });
});

const post = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

it("serves DeepSeek's Anthropic API under /anthropic as Messages, its Chat API as Chat", async () => {
  const base = mocks.url("deepseek");
  expect(base).not.toContain("/anthropic");
  const deepseek = mocks.forRoute({ persona: "deepseek" });
  const messages = await post(
    `${base}/anthropic/v1/messages`,
    { "x-api-key": "sk-gatecheck-test", "anthropic-version": "2023-06-01" },
    { model: "m", max_tokens: 16, messages: [{ role: "user", content: "gc-0123456789abcdef hi" }] },
  );
  expect(messages.status).toBe(200);
  expect(((await messages.json()) as { type?: string }).type).toBe("message");
  const chat = await post(
    `${base}/v1/chat/completions`,
    { authorization: "Bearer sk-gatecheck-test" },
    { model: "m", messages: [{ role: "user", content: "gc-fedcba9876543210 hi" }] },
  );
  expect(chat.status).toBe(200);
  expect(deepseek.records().map((r) => [r.request.path, r.dialect])).toEqual([
    ["/anthropic/v1/messages", "anthropic-messages"],
    ["/v1/chat/completions", "openai-chat"],
  ]);
  expect(main.records()).toEqual([]);
});

it("states a route's provider mount for the lens: DeepSeek's Messages, Google's Chat, none else", () => {
  expect(backendMountOf({ persona: "deepseek", backend: "anthropic-messages" })).toEqual({
    provider: "deepseek",
    at: "/anthropic",
    replaces: "",
    see: "https://api-docs.deepseek.com/guides/anthropic_api",
  });
  expect(backendMountOf({ persona: "google", backend: "openai-chat" })).toMatchObject({
    at: "/v1beta/openai",
    replaces: "/v1",
  });
  expect(backendMountOf({ persona: "deepseek", backend: "openai-chat" })).toBeUndefined();
  expect(backendMountOf({ backend: "anthropic-messages" })).toBeUndefined();
});
