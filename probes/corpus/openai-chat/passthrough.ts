/**
 * Chat parameters the canonical model keeps raw: on a Chat backend they must pass through
 * unchanged (the native route's promise).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

const native = ["openai-chat"] as const;

export const chatPassthroughProbes: Probe[] = [
  {
    id: "oc-logprobs",
    client: "openai-chat",
    axis: "request",
    field: "logprobs",
    request: { logprobs: true, top_logprobs: 3 },
    modes: BOTH_MODES,
    backends: native,
    severity: "low",
    note: "logprobs: true reaches a Chat backend",
  },
  {
    id: "oc-prediction",
    client: "openai-chat",
    axis: "request",
    field: "prediction",
    request: { prediction: { type: "content", content: "PREDICTPROBE expected output" } },
    modes: BOTH_MODES,
    backends: native,
    severity: "low",
    note: "predicted output reaches a Chat backend unchanged",
  },
  {
    id: "oc-store",
    client: "openai-chat",
    axis: "request",
    field: "store",
    request: { store: false },
    modes: BOTH_MODES,
    backends: native,
    severity: "medium",
    note: "store: false (do not retain) reaches a Chat backend as false",
  },
  {
    id: "oc-verbosity",
    client: "openai-chat",
    axis: "request",
    field: "verbosity",
    request: { verbosity: "low" },
    modes: BOTH_MODES,
    backends: native,
    severity: "low",
    note: "verbosity low reaches a Chat backend",
  },
];
