/**
 * A credential meant for the provider is a value, not a leak: an MCP server's token
 * (Anthropic `mcp_servers[].authorization_token`, Responses MCP tool `authorization`) is sent
 * for the provider's connector to present to the server, so a gateway owes it to the backend.
 * Whole exchanges, recorded redacted as the mock and the sweep store them (tags) and raw.
 */
import { describe, expect, it } from "vitest";
import { redactionTag } from "../../dialects/credentials.ts";
import { parseExchange } from "../exchange.ts";
import type { Verdict } from "../verdict.ts";
import { judgeExchange } from "./judge-exchange.ts";

const TOKEN = "mcp-oauth-MCPTOKEN-7731-abcdef";
const TAG = redactionTag(TOKEN);
const URL = "https://mcp.example.com/MCPPROBE";

function messages(token?: string, extra: Record<string, unknown> = {}) {
  const server = { type: "url", name: "probe", url: URL };
  return {
    model: "m",
    max_tokens: 64,
    messages: [{ role: "user", content: "hi" }],
    mcp_servers: [token === undefined ? server : { ...server, authorization_token: token }],
    ...extra,
  };
}

function responses(token?: string) {
  const tool = { type: "mcp", server_label: "probe", server_url: URL, require_approval: "never" };
  return {
    model: "m",
    input: "hi",
    tools: [token === undefined ? tool : { ...tool, authorization: token }],
  };
}

const PATHS = { "anthropic-messages": "/v1/messages", "openai-responses": "/v1/responses" };
type Side = keyof typeof PATHS;

function judged(client: [Side, object], forwarded: [Side, object]): Verdict[] {
  const exchange = parseExchange({
    route: { client: client[0], backend: forwarded[0] },
    mode: "non-stream",
    clientRequest: { path: PATHS[client[0]], headers: {}, body: client[1] },
    forwarded: [{ path: PATHS[forwarded[0]], headers: {}, body: forwarded[1] }],
  });
  return judgeExchange(exchange).filter((v) => v.direction === "request");
}

function field(verdicts: Verdict[], name: string): Verdict | undefined {
  return verdicts.find((v) => v.field === name);
}

const credentials = (verdicts: Verdict[]) =>
  verdicts.filter((v) => v.subject.startsWith("credentials."));

describe("an MCP server's token is the server's value, not a client credential", () => {
  it("carried Responses to Responses is preserved, never leaked", () => {
    const v = judged(["openai-responses", responses(TAG)], ["openai-responses", responses(TAG)]);
    // Before the rule: credentials.body.tools.authorization leaked (in-body).
    expect(credentials(v)).toEqual([]);
    expect(field(v, "tools[].mcp")).toMatchObject({ verdict: "preserved" });
  });

  it("lost Responses to Responses is the token dropped, not a credential kept back", () => {
    const v = judged(["openai-responses", responses(TAG)], ["openai-responses", responses()]);
    // Before the rule: the server mangled and the token `preserved (not forwarded)`.
    expect(credentials(v)).toEqual([]);
    expect(field(v, "tools[].mcp")).toMatchObject({ verdict: "dropped", cause: "token-dropped" });
  });

  it("Anthropic authorization_token arrives as Responses authorization: preserved", () => {
    const v = judged(["anthropic-messages", messages(TAG)], ["openai-responses", responses(TAG)]);
    expect(credentials(v)).toEqual([]);
    expect(field(v, "mcp_servers")).toMatchObject({ verdict: "preserved" });
    // A raw trace compares the same as a redacted one, and shows only the tag.
    const raw = judged(
      ["anthropic-messages", messages(TOKEN)],
      ["openai-responses", responses(TOKEN)],
    );
    expect(field(raw, "mcp_servers")).toMatchObject({ verdict: "preserved" });
    expect(JSON.stringify(raw)).not.toContain(TOKEN);
    expect(JSON.stringify(raw)).toContain(TAG);
  });

  it("Anthropic to Responses without the token is dropped; another token is mangled", () => {
    const lost = judged(["anthropic-messages", messages(TAG)], ["openai-responses", responses()]);
    // Before the rule: mangled (any difference in the server's value).
    expect(field(lost, "mcp_servers")).toMatchObject({
      verdict: "dropped",
      cause: "token-dropped",
    });
    expect(field(lost, "mcp_servers")?.reason).toContain('the token of "probe" did not arrive');
    const other = redactionTag("mcp-oauth-someone-else-0000");
    const swapped = judged(
      ["anthropic-messages", messages(TAG)],
      ["openai-responses", responses(other)],
    );
    expect(field(swapped, "mcp_servers")?.verdict).toBe("mangled");
    // A token the client never sent is the gateway's: not a dropped one.
    const added = judged(["anthropic-messages", messages()], ["openai-responses", responses(TAG)]);
    expect(field(added, "mcp_servers")?.verdict).toBe("mangled");
  });

  it("a server that changed besides its token stays mangled", () => {
    const moved = { ...responses(), tools: [{ ...responses().tools[0], server_url: `${URL}/x` }] };
    const v = judged(["anthropic-messages", messages(TAG)], ["openai-responses", moved]);
    expect(field(v, "mcp_servers")?.verdict).toBe("mangled");
  });

  it("a client credential beside it is still one: the API key in the body leaks", () => {
    const client = messages(TAG, { api_key: "body-secret-CANARY-1" });
    const forwarded = { ...responses(TAG), note: "body-secret-CANARY-1" };
    const v = judged(["anthropic-messages", client], ["openai-responses", forwarded]);
    expect(credentials(v).map((c) => `${c.field} ${c.verdict}`)).toEqual([
      "credentials.body.api_key leaked",
    ]);
  });
});
