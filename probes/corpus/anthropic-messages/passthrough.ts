/**
 * Documented Anthropic parameters no canonical attribute models (the canonical request keeps
 * them raw): judged as `extras.<key>` against each target's absent rows (docs/lens.md, "A
 * client key no reader maps"). `mcp_servers` still runs to Anthropic only: Responses carries
 * remote MCP servers as `tools[{type: "mcp"}]`, which no attribute models yet.
 * @see https://docs.anthropic.com/en/api/messages
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

const native = ["anthropic-messages"] as const;

export const anthropicPassthroughProbes: Probe[] = [
  {
    id: "am-mcp-servers",
    client: "anthropic-messages",
    axis: "request",
    field: "mcp_servers",
    request: {
      mcp_servers: [{ type: "url", name: "probe", url: "https://mcp.example.com/MCPPROBE" }],
    },
    modes: BOTH_MODES,
    backends: native,
    severity: "low",
    note: "the MCP connector list reaches an Anthropic backend unchanged",
  },
  {
    id: "am-container",
    client: "anthropic-messages",
    axis: "request",
    field: "container",
    request: { container: "container_PROBE0123456789" },
    modes: BOTH_MODES,
    severity: "low",
    note: "the code-execution container id reaches an Anthropic backend unchanged; no-equivalent elsewhere",
  },
];
