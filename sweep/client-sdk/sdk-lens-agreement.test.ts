import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ClientDialect, Mode } from "../../dialects/dialect.ts";
import { readReply } from "../../dialects/reply.ts";
import { sdkLensDisagreements } from "./sdk-lens-agreement.ts";
import { sdkView } from "./sdk-view.ts";

const dialectFixture = (dialect: string, name: string) =>
  readFileSync(new URL(`../../dialects/${dialect}/fixtures/${name}`, import.meta.url));
const ownFixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** The SDK and the lens read the same bytes; what do they disagree on? */
async function disagreements(client: ClientDialect, mode: Mode, body: Buffer, status = 200) {
  const type = mode === "stream" ? "text/event-stream" : "application/json";
  const sdk = await sdkView(client, mode, { status, headers: [["content-type", type]], body });
  const lens = readReply(client, { status, body: body.toString("utf8") }, mode);
  return sdkLensDisagreements(sdk, lens);
}

describe("SDK and lens agree on good replies", () => {
  it.each([
    ["openai-chat", "stream", "openai-chat", "stream-parallel-tools-usage.sse"],
    ["openai-chat", "non-stream", "openai-chat", "reply-tool-calls.json"],
    ["openai-responses", "stream", "openai-responses", "stream-tool-call.sse"],
    ["openai-responses", "non-stream", "openai-responses", "reply-incomplete.json"],
    ["anthropic-messages", "stream", "anthropic-messages", "stream-tool-no-args.sse"],
    ["anthropic-messages", "non-stream", "anthropic-messages", "reply-thinking-tool.json"],
  ] as const)("%s %s %s/%s", async (client, mode, dir, file) => {
    expect(await disagreements(client, mode, dialectFixture(dir, file))).toEqual([]);
  });

  it("both refuse an error body", async () => {
    const body = dialectFixture("anthropic-messages", "error-overloaded.json");
    expect(await disagreements("anthropic-messages", "non-stream", body, 529)).toEqual([]);
  });
});

describe("SDK and lens disagree, and say on what", () => {
  it("a Responses stream cut before response.completed: the SDK accepts, the lens sees it incomplete", async () => {
    const text = dialectFixture("openai-responses", "stream-tool-call.sse").toString("utf8");
    const cut = Buffer.from(text.slice(0, text.indexOf("event: response.completed")));
    expect(await disagreements("openai-responses", "stream", cut)).toEqual([
      { aspect: "accepted", sdk: "accepted", lens: "stream incomplete" },
    ]);
  });

  it("tool JSON cut mid-array in a Messages stream: the SDK completes it to an object, the lens keeps the raw string", async () => {
    const text = ownFixture("anthropic-stream-tool-malformed-json.sse").toString("utf8");
    const cut = Buffer.from(text.replace("[1, 2]}}", "[1, 2"));
    const found = await disagreements("anthropic-messages", "stream", cut);
    expect(found).toEqual([
      {
        aspect: "tool-calls",
        sdk: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP arguments {"issues":[1]}',
        lens: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP arguments "{\\"issues\\": [1, 2" (not JSON)',
      },
    ]);
  });

  it("tool arguments not valid JSON in a chat reply: both keep them unparsed, so they agree", async () => {
    const body = ownFixture("openai-chat-reply-tool-malformed-json.json");
    expect(await disagreements("openai-chat", "non-stream", body)).toEqual([]);
  });
});
