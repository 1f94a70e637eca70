/**
 * Chat parameters the canonical model keeps raw: on a Chat backend they must pass through
 * unchanged (the native route's promise).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import type { Probe } from "../probe.ts";

const both = ["stream", "non-stream"] as const;
const native = ["openai-chat"] as const;

export const chatPassthroughProbes: Probe[] = [
  {
    id: "oc-logprobs",
    client: "openai-chat",
    axis: "request",
    field: "logprobs",
    request: { logprobs: true, top_logprobs: 3 },
    modes: both,
    backends: native,
    severity: "low",
    note: "logprobs: true reaches a Chat backend",
  },
  {
    id: "oc-logit-bias",
    client: "openai-chat",
    axis: "request",
    field: "logit_bias",
    request: { logit_bias: { "50256": -100 } },
    modes: both,
    backends: native,
    severity: "low",
    note: "the bias map reaches a Chat backend unchanged",
  },
  {
    id: "oc-prediction",
    client: "openai-chat",
    axis: "request",
    field: "prediction",
    request: { prediction: { type: "content", content: "PREDICTPROBE expected output" } },
    modes: both,
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
    modes: both,
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
    modes: both,
    backends: native,
    severity: "low",
    note: "verbosity low reaches a Chat backend",
  },
];
