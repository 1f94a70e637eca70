/**
 * Anthropic's MCP connector: `mcp_servers`, the remote MCP servers the API connects to itself
 * (beta `mcp-client-2025-04-04`). Each server is `{type: "url", url, name,
 * authorization_token?, tool_configuration?: {enabled?, allowed_tools?}}`.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/mcp-connector
 */
import type { McpServer } from "../canonical.ts";
import type { ValueCredentials } from "../dialect-module.ts";
import { asRecord, type JsonRecord } from "../json.ts";
import { asRecords, asStringArray, compact, mergeExtras, nonEmpty } from "../request-fields.ts";

/** One server, or undefined when it is not one of the documented shape (the list stays raw). */
function readServer(raw: JsonRecord): McpServer | undefined {
  const { type, url, name, authorization_token, tool_configuration, ...rest } = raw;
  if (type !== "url" || typeof url !== "string" || typeof name !== "string") return undefined;
  if (authorization_token !== undefined && typeof authorization_token !== "string")
    return undefined;
  const config = tool_configuration === undefined ? {} : asRecord(tool_configuration);
  if (!config) return undefined;
  const { allowed_tools, ...configRest } = config;
  const allowedTools = allowed_tools === undefined ? undefined : asStringArray(allowed_tools);
  if (allowed_tools !== undefined && !allowedTools) return undefined;
  const extras = nonEmpty({
    ...rest,
    ...(nonEmpty(configRest) ? { tool_configuration: configRest } : {}),
  });
  return compact({ name, url, authorization: authorization_token, allowedTools, extras });
}

/**
 * The servers' `authorization_token`s, credentials the client sends for Anthropic's connector
 * to present to each server ("OAuth authorization token if required by the MCP server"): part
 * of the server's value, whether the list is read as servers or kept raw (then compared whole).
 */
export function mcpServerCredentials(body: JsonRecord): ValueCredentials[] {
  const servers = Array.isArray(body.mcp_servers) ? body.mcp_servers : [];
  const out: ValueCredentials[] = [];
  for (const server of servers) {
    const holder = asRecord(server);
    if (holder) out.push({ holder, keys: MCP_SERVER_CREDENTIAL_KEYS });
  }
  return out;
}

const MCP_SERVER_CREDENTIAL_KEYS = ["authorization_token"] as const;

/** The canonical servers of an `mcp_servers` value, or undefined to keep it raw. */
export function readMcpServers(value: unknown): McpServer[] | undefined {
  const servers = asRecords(value)?.map(readServer);
  return servers?.every((s) => s !== undefined) ? (servers as McpServer[]) : undefined;
}

export function writeMcpServers(servers: McpServer[], same: boolean): JsonRecord[] {
  return servers.map((s) => {
    const server = compact({
      type: "url",
      url: s.url,
      name: s.name,
      authorization_token: s.authorization,
      tool_configuration: s.allowedTools ? { allowed_tools: s.allowedTools } : undefined,
    });
    return same ? mergeExtras(server, s.extras) : server;
  });
}
