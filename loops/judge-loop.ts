/**
 * Judges one loop across its turns, from what the agent got and what reached the backend
 * (the mock's records, already redacted). Pure: the same evidence gives the same outcome.
 *
 * - Turn 1 breaks when the task never got an answer the agent could use: the gateway
 *   refused it, a strict provider rejected what was forwarded, the SDK could not read it, or
 *   the tool calls the agent got are not the backend's (count, names, arguments).
 * - Turn 2 breaks when the echo is refused or rejected, or when what reached the backend does
 *   not link to what the backend said at turn 1: each result under an id the backend issued
 *   (restored, if the gateway rewrote it for the client), in order, with its content; and the
 *   thinking signature or thoughtSignature back in the backend's own slot where the backend's
 *   provider refuses a tool loop without it (SIGNATURE_RULES: Gemini always, Anthropic while
 *   the request enables thinking).
 * - Turn 3 breaks when the backend's final answer does not reach the agent as sent.
 */
import type { CanonicalReply } from "../dialects/canonical.ts";
import { DIALECTS, type Dialect } from "../dialects/dialect.ts";
import { tryParseJson } from "../dialects/json.ts";
import { dialectModule } from "../dialects/registry.ts";
import { dialectOfPath } from "../dialects/routes.ts";
import type { MockRecord } from "../mock-upstream/index.ts";
import type { AgentRun } from "./agent.ts";
import { broke, completed, type LoopOutcome } from "./loop-outcome.ts";
import {
  FINAL_TEXT,
  LOOP_CITIES,
  LOOP_TOOL,
  type LoopVariant,
  toolResultText,
} from "./loop-script.ts";
import {
  forwardedRequest,
  LINK_BY,
  linkResults,
  partsOf,
  reasoningAsked,
  signatureCameBack,
  signatureRequired,
  signatureSlot,
  signedParts,
  upstreamReply,
  whatCameBack,
} from "./turn-link.ts";

export interface LoopEvidence {
  variant: LoopVariant;
  backend: Dialect;
  agent: AgentRun;
  /** The mock's records for the loop's nonce, in arrival order. */
  forwarded: readonly MockRecord[];
  /** What the gateway answered each of the agent's requests (status, body as text), in order. */
  replies?: readonly { status: number; body: string }[];
}

function requestOf(backend: Dialect, record: MockRecord) {
  const { body, path } = record.request;
  const parsed = body.encoding === "utf8" ? tryParseJson(body.data) : undefined;
  return parsed?.ok ? forwardedRequest(backend, parsed.value, path) : undefined;
}

function replyOf(backend: Dialect, record: MockRecord): CanonicalReply | undefined {
  const { status, body } = record.reply;
  return body.encoding === "base64"
    ? undefined
    : upstreamReply(backend, { status, body: body.data });
}

const isTurnTwo = (backend: Dialect, record: MockRecord) =>
  partsOf(requestOf(backend, record)?.messages ?? []).some((p) => p.type === "tool-result");

/** Why a request failed, from its forwarded record (if any) and what the SDK said. */
function failure(
  turn: 1 | 2,
  record: MockRecord | undefined,
  sdkMessage: string,
  what: string,
  clientStatus: number | undefined,
): LoopOutcome {
  const status = record?.reply?.status ?? 0;
  if (record?.reply?.personaRule) {
    return broke(
      turn,
      "strict-provider",
      `${record.reply.persona ?? "the provider"} rejected the forwarded ${what} (${record.reply.personaRule}, status ${status}); the agent's SDK said: ${sdkMessage}`,
    );
  }
  if (!record) {
    const transport = /fetch failed|connection error|timed? ?out/i.test(sdkMessage);
    return broke(
      turn,
      transport ? "transport-error" : "gateway-error",
      `nothing of the ${what} reached the backend; the agent's SDK said: ${sdkMessage}`,
    );
  }
  const ok = (s: number | undefined) => s !== undefined && s >= 200 && s < 300;
  if (ok(status) && clientStatus !== undefined && !ok(clientStatus)) {
    // The backend answered; the gateway failed on its answer.
    return broke(
      turn === 1 ? 1 : 3,
      "gateway-error",
      `the backend answered ${status} to the ${what}; the gateway answered the agent ${clientStatus}, and the agent's SDK said: ${sdkMessage}`,
    );
  }
  if (ok(status)) {
    // The backend answered; the answer did not reach the agent in a form it reads.
    return broke(
      turn === 1 ? 1 : 3,
      "sdk-rejected",
      `the backend answered ${status} to the ${what}, and the agent's SDK raised: ${sdkMessage}`,
    );
  }
  return broke(
    turn,
    "gateway-error",
    `the backend answered ${status} to the forwarded ${what}; the agent's SDK said: ${sdkMessage}`,
  );
}

/** The top-level keys of a JSON text, and its `object` or `type` where it names itself. */
function shapeOf(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const named = ["object", "type"].find((k) => typeof record[k] === "string");
  return `top-level keys ${Object.keys(record).join(", ")}${named ? ` (${named} ${JSON.stringify(record[named])})` : ""}`;
}

/**
 * Where the task's tool calls went missing, from the bytes: whether the task reached the
 * backend in the backend's dialect and with its tools, whether the backend's reply carried the
 * calls, and what the gateway answered the agent. The mock answers its staged calls whatever
 * the request holds, so a request a real provider could not have answered with a call is said.
 */
function whereCallsWentMissing(
  backend: Dialect,
  turnOne: MockRecord | undefined,
  firstReply: { status: number; body: string } | undefined,
): string[] {
  const found: string[] = [];
  const request = turnOne ? requestOf(backend, turnOne) : undefined;
  if (turnOne && request?.messages.length === 0) {
    const { body, path } = turnOne.request;
    const shape = body.encoding === "utf8" ? shapeOf(body.data) : undefined;
    found.push(
      `the task reached the backend (${path}) with no ${backend} messages: the gateway forwarded it untranslated${shape ? ` (${shape})` : ""}, which a real provider refuses`,
    );
  } else if (turnOne && request && request.tools.length === 0) {
    found.push(
      "the gateway forwarded the task without its tools, so a real provider would have had no tool to call (the mock answers its staged calls whatever the request holds)",
    );
  }
  const issued = turnOne ? (replyOf(backend, turnOne)?.parts ?? []) : [];
  const calls = issued.filter((p) => p.type === "tool-call").length;
  if (calls > 0) found.push(`the backend's reply carried ${calls} call(s)`);
  const shape = firstReply ? shapeOf(firstReply.body) : undefined;
  if (firstReply && shape) {
    found.push(`the gateway answered the agent ${firstReply.status} with ${shape}`);
  }
  return found;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The dialect a record was spoken in: as the mock read it, or from its path where the mock
 * did not know it (a persona's listener, a gateway's own mount in front of the provider's
 * path: `/anthropic/v1/messages`), the longest tail of the path that is a dialect's endpoint.
 */
function recordedDialect(record: MockRecord | undefined): Dialect | undefined {
  if (!record) return undefined;
  if (record.dialect && (DIALECTS as readonly string[]).includes(record.dialect)) {
    return record.dialect;
  }
  const path = record.request.path.split("?")[0] ?? "";
  for (let at = 0; at >= 0; at = path.indexOf("/", at + 1)) {
    const match = dialectOfPath(path.slice(at));
    if (match?.kind === "generate") return match.dialect;
  }
  return undefined;
}

/**
 * Judges the loop, reading what reached the backend in the dialect the gateway spoke to it (a
 * gateway may call another endpoint than the route names: LiteLLM sends DeepSeek requests from
 * a Messages client to DeepSeek's Messages endpoint); a break says so where they differ.
 */
export function judgeLoop(evidence: LoopEvidence): LoopOutcome {
  const spoken = recordedDialect(evidence.forwarded[0]) ?? evidence.backend;
  const outcome = judgeSpoken({ ...evidence, backend: spoken }, evidence.backend);
  if (spoken === evidence.backend || outcome.status !== "broke") return outcome;
  return {
    ...outcome,
    reason: `${outcome.reason} (the gateway sent this route's requests to the backend's ${spoken} endpoint ${evidence.forwarded[0]?.request.path ?? ""}, not ${evidence.backend}: judged as ${spoken})`,
  };
}

/**
 * Why an id link that failed is not the gateway's loss, where it is not: the backend's ids were
 * staged in the route's backend style (`toolCallId`), and the gateway spoke another dialect to
 * the backend whose ids must have a form they lack (Anthropic's tool_use ids, for LiteLLM's
 * DeepSeek Messages endpoint). A provider of that dialect never issues such ids, so a gateway
 * that sends them back in that form, each result answering the call it follows in the echo,
 * did what the dialect requires. Undefined when the failure is the gateway's.
 */
function idsTheDialectForbids(
  spoken: Dialect,
  routeBackend: Dialect,
  want: readonly (string | undefined)[],
  got: readonly (string | undefined)[],
  echoedCalls: readonly (string | undefined)[],
): string | undefined {
  const form = dialectModule(spoken).traits.toolCallId;
  if (spoken === routeBackend || !form) return undefined;
  const fits = (id: string | undefined) => id !== undefined && form.test(id);
  if (want.every(fits) || got.length !== want.length || !got.every(fits)) return undefined;
  if (new Set(got).size !== got.length || !sameJson(echoedCalls, got)) return undefined;
  return `the backend's call ids ${JSON.stringify(want)} are not of the form ${form} that the ${spoken} dialect the gateway spoke requires (the mock issued them in ${routeBackend}'s style); they came back as ${JSON.stringify(got)}, of that form, each result answering the call it follows: not judged as an id the gateway lost`;
}

function judgeSpoken(evidence: LoopEvidence, routeBackend: Dialect): LoopOutcome {
  const { variant, backend, agent, forwarded } = evidence;
  const replies = evidence.replies ?? [];
  const turnTwoAt = forwarded.findIndex((r) => isTurnTwo(backend, r));
  const turnOne = forwarded.find((r, i) => i !== turnTwoAt && !isTurnTwo(backend, r));
  const turnTwo = turnTwoAt >= 0 ? forwarded[turnTwoAt] : undefined;

  if (agent.error?.request === 1) {
    return failure(1, turnOne, agent.error.message, "task", replies[0]?.status);
  }
  const seen = agent.calls ?? [];
  const wanted = LOOP_CITIES.slice(0, variant.calls).map((city) => ({
    name: LOOP_TOOL.name,
    arguments: { city },
  }));
  const seenShape = seen.map((c) => ({ name: c.name, arguments: c.arguments }));
  if (!sameJson(seenShape, wanted)) {
    const found = whereCallsWentMissing(backend, turnOne, replies[0]);
    return broke(
      1,
      "tool-call-mangled",
      `the backend made ${wanted.length} call(s) ${JSON.stringify(wanted)}; the agent got ${JSON.stringify(seenShape)}${found.length > 0 ? `. ${found.join("; ")}` : ""}`,
    );
  }
  const echoStatus = turnTwo?.reply?.status ?? 0;
  const echoAnswered = echoStatus >= 200 && echoStatus < 300;
  if (agent.error?.request === 2 && !echoAnswered) {
    return failure(2, turnTwo, agent.error.message, "echo", replies[1]?.status);
  }
  const echo = forwarded.find((r) => r !== turnOne);
  if (!turnTwo && turnOne && echo) {
    const shape = requestOf(backend, echo)?.messages.map((m) => m.role);
    return broke(
      2,
      "result-lost",
      `the echo reached the backend without a tool result: its messages are ${JSON.stringify(shape ?? [])} (the calls and results did not arrive as the backend's tool messages)`,
    );
  }
  if (!turnTwo || !turnOne) {
    return broke(
      2,
      "gateway-error",
      `the agent's echo got an answer but no request with its tool results reached the backend (${forwarded.length} request(s) forwarded)`,
    );
  }

  const losses: string[] = [];
  const issued = replyOf(backend, turnOne)?.parts ?? [];
  const issuedCalls = issued.flatMap((p) => (p.type === "tool-call" ? [p] : []));
  const request = requestOf(backend, turnTwo);
  const sentBack = partsOf(request?.messages ?? []);
  const results = sentBack.flatMap((p) => (p.type === "tool-result" ? [p] : []));
  const link = LINK_BY[backend];
  const { want, got, linked } = linkResults(backend, issuedCalls, results);
  const echoedCalls = sentBack.flatMap((p) => (p.type === "tool-call" ? [p.id] : []));
  const forbidden = linked
    ? undefined
    : idsTheDialectForbids(backend, routeBackend, want, got, echoedCalls);
  if (forbidden) losses.push(forbidden);
  else if (!linked) {
    return broke(
      2,
      "id-lost",
      `the backend issued ${link.by === "id" ? "call ids" : "calls"} ${JSON.stringify(want)} at turn 1; the results that reached it answer ${JSON.stringify(got)} (the agent saw ids ${JSON.stringify(seen.map((c) => c.id))}); see ${link.see}`,
    );
  }
  for (const [index, result] of results.entries()) {
    const text = JSON.stringify(result.content);
    if (!text.includes(toolResultText(variant, index))) {
      return broke(
        2,
        "result-lost",
        `result ${index + 1} reached the backend as ${text.slice(0, 200)}, without the agent's "${toolResultText(variant, index)}"`,
      );
    }
    if (variant.errorResult && backend === "anthropic-messages" && result.isError !== true) {
      losses.push(`result ${index + 1} lost its is_error flag`);
    }
  }
  for (const sig of signedParts(issued)) {
    if (signatureCameBack(sig, sentBack)) continue;
    const slot = signatureSlot(sig);
    const required = signatureRequired(backend, sig, request);
    if (required.required) {
      return broke(
        2,
        "signature-lost",
        `the backend's ${slot} did not come back to it at turn 2 as it was sent (${whatCameBack(sig, sentBack)}); its provider refuses such a tool loop (${required.see})`,
        losses,
      );
    }
    losses.push(
      `the ${slot} did not come back to the backend${required.why ? ` (${required.why})` : ""}`,
    );
  }
  if (variant.reasoning && !reasoningAsked(request)) {
    losses.push(
      "the agent asked for reasoning; its echo reached the backend with no reasoning setting",
    );
  }
  const reasoning = issued.find((p) => p.type === "reasoning");
  if (reasoning && !sentBack.some((p) => p.type === "reasoning" && p.text === reasoning.text)) {
    losses.push("the reasoning text did not come back to the backend");
  }
  if (agent.error?.request === 2) {
    const outcome = failure(2, turnTwo, agent.error.message, "echo", replies[1]?.status);
    return outcome.status === "broke" ? { ...outcome, losses } : outcome;
  }
  if (agent.finalText !== FINAL_TEXT) {
    return broke(
      3,
      "final-text-mismatch",
      `the backend answered ${JSON.stringify(FINAL_TEXT)}; the agent got ${JSON.stringify(agent.finalText ?? null)}`,
      losses,
    );
  }
  return completed(losses);
}
