/**
 * Documented Anthropic parameters no canonical attribute models (the canonical request keeps
 * them raw): judged as `extras.<key>` against each target's absent rows (docs/lens.md, "A
 * client key no reader maps"). The ones modelled as attributes (`mcp_servers`,
 * `context_management`) are in request.ts.
 * @see https://docs.anthropic.com/en/api/messages
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

export const anthropicPassthroughProbes: Probe[] = [
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
