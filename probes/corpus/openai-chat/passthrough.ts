/**
 * Documented Chat parameters no canonical attribute models (the canonical request keeps them
 * raw): judged as `extras.<key>` against each target's absent rows, so they run on every
 * backend whose verdict the rows can decide (docs/lens.md, "A client key no reader maps").
 * The ones modelled as attributes (logprobs, prediction, ...) are in request.ts.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

export const chatPassthroughProbes: Probe[] = [
  {
    id: "oc-store",
    client: "openai-chat",
    axis: "request",
    field: "store",
    request: { store: false },
    modes: BOTH_MODES,
    severity: "medium",
    note: "store: false (do not retain) reaches Chat and Responses (which stores by default) as false; no-equivalent where nothing is stored",
  },
  {
    id: "oc-verbosity",
    client: "openai-chat",
    axis: "request",
    field: "verbosity",
    request: { verbosity: "low" },
    modes: BOTH_MODES,
    // Responses spells it `text.verbosity`, which no attribute models yet: not judged there.
    backends: ["openai-chat", "anthropic-messages", "gemini", "ollama"],
    severity: "low",
    note: "verbosity low reaches a Chat backend; no-equivalent on Anthropic, Gemini and Ollama",
  },
];
