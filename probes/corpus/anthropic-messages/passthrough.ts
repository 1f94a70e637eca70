/**
 * Anthropic parameters the canonical model keeps raw (no other dialect has them): on an
 * Anthropic backend they must pass through unchanged, the promise of every "native" route.
 * @see https://docs.anthropic.com/en/api/messages
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

const native = ["anthropic-messages"] as const;

export const anthropicPassthroughProbes: Probe[] = [
  {
    id: "am-context-management",
    client: "anthropic-messages",
    axis: "request",
    field: "context_management",
    request: { context_management: { edits: [{ type: "clear_tool_uses_20250919" }] } },
    modes: BOTH_MODES,
    backends: native,
    severity: "low",
    note: "the context-editing config reaches an Anthropic backend unchanged",
  },
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
    backends: native,
    severity: "low",
    note: "the code-execution container id reaches an Anthropic backend unchanged",
  },
];
