/**
 * Responses' remote MCP tools: `tools[{type: "mcp", server_label, server_url, allowed_tools?,
 * authorization?, require_approval?, headers?, server_description?}]`, the canonical MCP
 * servers. A tool naming a `connector_id` instead of a URL, or an `allowed_tools` filter
 * object, has no canonical form and stays a raw tool.
 * @see https://platform.openai.com/docs/guides/tools-remote-mcp
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 */
import type { McpServer } from "../canonical.ts";
import type { ValueCredentials } from "../dialect-module.ts";
import { asRecord, type JsonRecord } from "../json.ts";
import { asStringArray, compact, mergeExtras, nonEmpty } from "../request-fields.ts";

/** The canonical server of an MCP tool, or undefined when it has no canonical form. */
export function readMcpTool(raw: JsonRecord): McpServer | undefined {
  const { type, server_label, server_url, allowed_tools, authorization, ...rest } = raw;
  if (type !== "mcp" || typeof server_label !== "string" || typeof server_url !== "string") {
    return undefined;
  }
  if (authorization !== undefined && typeof authorization !== "string") return undefined;
  const allowedTools = allowed_tools === undefined ? undefined : asStringArray(allowed_tools);
  if (allowed_tools !== undefined && !allowedTools) return undefined;
  return compact({
    name: server_label,
    url: server_url,
    authorization,
    allowedTools,
    extras: nonEmpty(rest),
  });
}

/**
 * The `authorization` of each MCP tool read as a server: "An OAuth access token that can be
 * used with a remote MCP server", which the client sends for OpenAI to present to the server
 * (part of the server's value). A connector tool (`connector_id`) is not read as a server, so
 * its token is not among these (docs/lens.md, known limits).
 */
export function mcpToolCredentials(body: JsonRecord): ValueCredentials[] {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const out: ValueCredentials[] = [];
  for (const tool of tools) {
    const holder = asRecord(tool);
    if (holder && readMcpTool(holder)) out.push({ holder, keys: MCP_TOOL_CREDENTIAL_KEYS });
  }
  return out;
}

const MCP_TOOL_CREDENTIAL_KEYS = ["authorization"] as const;

/**
 * An MCP tool for a canonical server. Read from another dialect, `require_approval: "never"`:
 * the servers of Anthropic's connector are called without asking, and Responses asks for
 * approval before it calls a remote MCP tool unless told not to (the guide's "Approvals").
 */
export function writeMcpTool(server: McpServer, same: boolean): JsonRecord {
  const tool = compact({
    type: "mcp",
    server_label: server.name,
    server_url: server.url,
    allowed_tools: server.allowedTools,
    authorization: server.authorization,
    require_approval: same ? undefined : "never",
  });
  return same ? mergeExtras(tool, server.extras) : tool;
}
