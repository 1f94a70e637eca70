/**
 * Remote MCP servers as one attribute (issue 20 §2): Anthropic `mcp_servers[]` and Responses
 * `tools[{type: "mcp"}]` read into `mcpServers`, written across by the writers and judged by
 * value (name, URL, token, allowed tools); no-equivalent on Chat, Gemini and Ollama.
 */
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../dialects/dialect.ts";
import { readRequest, writeRequest } from "../../dialects/request.ts";
import { judge, only, req } from "./testing/request-pairs.ts";

const URL = "https://mcp.example.com/MCPPROBE";
const MESSAGES = { model: "m", max_tokens: 64, messages: [{ role: "user", content: "hi" }] };
const SERVER = {
  type: "url",
  url: URL,
  name: "probe",
  tool_configuration: { allowed_tools: ["search"] },
};

function through(client: ReturnType<typeof readRequest>, backend: Dialect) {
  const written = writeRequest(backend, client);
  const path = backend === "gemini" ? "/v1beta/models/m:generateContent" : undefined;
  return { written, verdicts: judge(client, readRequest(backend, written.body, { path })) };
}

describe("remote MCP servers", () => {
  const client = readRequest("anthropic-messages", { ...MESSAGES, mcp_servers: [SERVER] });

  it("reads Anthropic's list as servers, not extras", () => {
    expect(client.mcpServers).toEqual([{ name: "probe", url: URL, allowedTools: ["search"] }]);
    expect(client.extras).toEqual({});
    expect(writeRequest("anthropic-messages", client).body.mcp_servers).toEqual([SERVER]);
  });

  it("reaches Responses as an mcp tool, called without approval as Anthropic's are", () => {
    const { written, verdicts } = through(client, "openai-responses");
    expect(written.body.tools).toEqual([
      {
        type: "mcp",
        server_label: "probe",
        server_url: URL,
        allowed_tools: ["search"],
        require_approval: "never",
      },
    ]);
    expect(only(verdicts, "mcp_servers")).toMatchObject({
      subject: "mcp-servers",
      verdict: "preserved",
    });
  });

  it("comes back from Responses as mcp_servers; other tools stay tools", () => {
    const responses = readRequest("openai-responses", {
      model: "m",
      input: "hi",
      tools: [
        { type: "function", name: "f", parameters: { type: "object" } },
        { type: "mcp", server_label: "probe", server_url: URL, require_approval: "never" },
        { type: "mcp", server_label: "gdrive", connector_id: "connector_googledrive" },
      ],
    });
    expect(responses.mcpServers).toEqual([
      { name: "probe", url: URL, extras: { require_approval: "never" } },
    ]);
    expect(responses.tools.map((t) => t.kind)).toEqual(["function", "mcp"]);
    const { written, verdicts } = through(responses, "anthropic-messages");
    expect(written.body.mcp_servers).toEqual([{ type: "url", url: URL, name: "probe" }]);
    expect(only(verdicts, "tools[].mcp").verdict).toBe("preserved");
  });

  it("is no-equivalent on Chat, Gemini and Ollama, and named among the omissions", () => {
    for (const backend of ["openai-chat", "gemini", "ollama"] as const) {
      const { written, verdicts } = through(client, backend);
      expect(written.omitted.map((o) => o.subject)).toContain("mcp-servers");
      expect(only(verdicts, "mcp_servers").verdict, backend).toBe("no-equivalent");
    }
  });

  it("is dropped, mangled or mangled (foreign-key) when a gateway loses or changes it", () => {
    expect(only(judge(client, req("openai-responses")), "mcp_servers").verdict).toBe("dropped");
    const moved = req("openai-responses", {
      mcpServers: [{ name: "probe", url: "https://mcp.example.com/other" }],
    });
    expect(only(judge(client, moved), "mcp_servers").verdict).toBe("mangled");
    // Anthropic's key written into a Responses body: Responses never reads it.
    const foreign = req("openai-responses", { extras: { mcp_servers: [SERVER] } });
    expect(only(judge(client, foreign), "mcp_servers")).toMatchObject({
      verdict: "mangled",
      cause: "foreign-key",
    });
  });
});
