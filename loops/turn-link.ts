/**
 * How one turn of a tool loop links to the next, on the backend's side: what the backend
 * said at one turn (its tool calls, the signatures and reasoning it sent) against what
 * reached it at the next (the results, and what came back of the rest). The loop judge
 * (judge-loop.ts) and the chain judge of `gatecheck check` (judge-chain.ts) both read turns
 * through this, so a link means the same in a sweep's loop and in a pasted trace.
 */
import type { CanonicalReply, CanonicalRequest, Message, Part } from "../dialects/canonical.ts";
import { DIALECTS, type Dialect, type Mode } from "../dialects/dialect.ts";
import { DIALECT_MODULES } from "../dialects/registry.ts";
import { readReply } from "../dialects/reply.ts";
import { readRequest } from "../dialects/request.ts";

/**
 * How a backend links a result to its call, as its dialect module says
 * (`traits.toolResultLink`): by the call's id, or (Gemini, Ollama) by the function's name in
 * call order, falling back to an id where a result carries no name.
 */
export const LINK_BY: Readonly<Record<Dialect, { by: "id" | "name"; see: string }>> =
  Object.fromEntries(
    DIALECTS.map((d) => [d, DIALECT_MODULES[d].traits.toolResultLink] as const),
  ) as Record<Dialect, { by: "id" | "name"; see: string }>;

/**
 * Backends whose provider refuses a tool loop whose echoed assistant turn lacks the signed
 * reasoning it sent: a lost signature there breaks the loop; elsewhere (Responses'
 * `encrypted_content`, reasoning text on Chat or Ollama) it is a loss. DeepSeek's and
 * Moonshot's `reasoning_content` rules are enforced by their personas, not here.
 *
 * `when`: the request the rule holds for, where the provider checks only some. Anthropic
 * demands the thinking blocks back only while thinking is on: its 400 reads "When thinking is
 * enabled, a final assistant message must start with a thinking block ... To avoid this
 * requirement, disable thinking" (the echo without `thinking` enabled is accepted). Gemini 3
 * validates every function call's `thoughtSignature` in the current turn whatever the request
 * holds (its thinking cannot be turned off).
 */
export const SIGNATURE_RULES: Partial<
  Record<
    Dialect,
    {
      slot: "thinking" | "tool-call";
      see: string;
      when?: { holds: (request: CanonicalRequest) => boolean; otherwise: string };
      /** Stand-ins the provider documents as accepted in the signature's place. */
      standIns?: readonly string[];
    }
  >
> = {
  "anthropic-messages": {
    slot: "thinking",
    see: "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks",
    when: {
      holds: (request) =>
        request.reasoning?.mode === "enabled" || request.reasoning?.mode === "adaptive",
      otherwise:
        "the request did not enable thinking, and Anthropic asks for the blocks back only while it is on",
    },
  },
  gemini: {
    slot: "tool-call",
    see: "https://ai.google.dev/gemini-api/docs/thought-signatures",
    // The dummy signatures Google documents for a function call whose signature is not at hand
    // (its FAQ: history from another model, injected calls): validation is skipped.
    standIns: ["skip_thought_signature_validator", "context_engineering_is_the_way_to_go"],
  },
};

/** The request asks the backend to reason (a mode, an effort, a budget), and not to stop. */
export function reasoningAsked(request: CanonicalRequest | undefined): boolean {
  const r = request?.reasoning;
  if (!r || r.mode === "disabled" || r.effort === "none") return false;
  return (
    r.mode !== undefined ||
    r.effort !== undefined ||
    r.budgetTokens !== undefined ||
    r.includeThoughts === true
  );
}

/**
 * Whether the backend's provider refuses this echo for lacking the signed part `sig`: the
 * rule's reference when it does, or why it does not (no rule for this slot, or the request
 * is not one the rule holds for).
 */
export function signatureRequired(
  backend: Dialect,
  sig: Signed,
  request: CanonicalRequest | undefined,
): { required: true; see: string } | { required: false; why?: string } {
  const rule = SIGNATURE_RULES[backend];
  if (!rule || rule.slot !== sig.type) return { required: false };
  if (rule.when && !(request && rule.when.holds(request)))
    return { required: false, why: rule.when.otherwise };
  const standIn = request && standInSent(sig, partsOf(request.messages), rule.standIns ?? []);
  if (standIn)
    return {
      required: false,
      why: `the gateway put ${JSON.stringify(standIn)} in its place, a stand-in the provider documents as accepted (${rule.see}): no refusal, the reasoning context is lost`,
    };
  return { required: true, see: rule.see };
}

/** The documented stand-in the gateway sent in the signature's slot, if it sent one. */
function standInSent(
  sig: Signed,
  sentBack: readonly Part[],
  standIns: readonly string[],
): string | undefined {
  const part = slotPart(sig, sentBack);
  const got = part && "signature" in part ? part.signature : undefined;
  return got !== undefined && standIns.includes(got) ? got : undefined;
}

/** The part in the slot of a signed part: the same call (by id, else by name), or the first thinking block. */
function slotPart(sig: Signed, sentBack: readonly Part[]): Part | undefined {
  const same = sentBack.filter((p) => p.type === sig.type);
  return sig.type === "tool-call"
    ? (same.find((p) => p.type === "tool-call" && p.id === sig.id && sig.id !== "") ??
        same.find((p) => p.type === "tool-call" && p.name === sig.name))
    : same[0];
}

export const partsOf = (messages: readonly Message[]): Part[] => messages.flatMap((m) => m.parts);

/** A forwarded body read in the backend's dialect; undefined when it is not a JSON object. */
export function forwardedRequest(
  backend: Dialect,
  body: unknown,
  path: string,
): CanonicalRequest | undefined {
  try {
    return readRequest(backend, body, { path });
  } catch {
    return undefined;
  }
}

/** What the backend answered, read in its dialect; undefined when it cannot be read. */
export function upstreamReply(
  backend: Dialect,
  reply: { status: number; body: string },
  mode: Mode = "non-stream",
): CanonicalReply | undefined {
  try {
    return readReply(backend, reply, mode);
  } catch {
    return undefined;
  }
}

type ToolCall = Extract<Part, { type: "tool-call" }>;
type ToolResult = Extract<Part, { type: "tool-result" }>;

export interface ResultLink {
  /** What the backend's calls are known by (an id, or a name where the result links by name). */
  want: (string | undefined)[];
  /** What the results that reached it answer, in order. */
  got: (string | undefined)[];
  linked: boolean;
}

/** Whether `results` answer `calls` in order, as `backend` links them. */
export function linkResults(
  backend: Dialect,
  calls: readonly ToolCall[],
  results: readonly ToolResult[],
): ResultLink {
  const byName = (r: ToolResult | undefined) =>
    LINK_BY[backend].by === "name" && r?.name !== undefined;
  const want = calls.map((c, i) => (byName(results[i]) ? c.name : c.id));
  const got = results.map((r) => (byName(r) ? r.name : r.callId));
  return { want, got, linked: JSON.stringify(want) === JSON.stringify(got) };
}

/** A thinking block or function call the backend signed. */
export type Signed = Extract<Part, { type: "thinking" | "tool-call" }> & { signature: string };

export function signedParts(issued: readonly Part[]): Signed[] {
  return issued.flatMap((p) =>
    (p.type === "thinking" || p.type === "tool-call") && p.signature ? [p as Signed] : [],
  );
}

/** The signature came back byte for byte in the backend's own slot (a part of its type). */
export function signatureCameBack(sig: Signed, sentBack: readonly Part[]): boolean {
  return sentBack.some(
    (p) => p.type === sig.type && "signature" in p && p.signature === sig.signature,
  );
}

/** The first characters of a signature, enough to tell two apart in a reason. */
const head = (signature: string) =>
  signature.length > 16 ? `${signature.slice(0, 16)}…` : signature;

/**
 * What came back in the slot of a signature that did not: the same call (by id, else by name)
 * or the first thinking block, with another signature or none; or no such part at all.
 */
export function whatCameBack(sig: Signed, sentBack: readonly Part[]): string {
  const part = slotPart(sig, sentBack);
  const what = sig.type === "tool-call" ? `the ${sig.name} call` : "a thinking block";
  if (!part)
    return `no ${sig.type === "tool-call" ? `${sig.name} call` : "thinking block"} came back`;
  const got = "signature" in part ? part.signature : undefined;
  return got
    ? `${what} came back with ${head(got)} for ${head(sig.signature)}`
    : `${what} came back without one (sent: ${head(sig.signature)})`;
}

export function signatureSlot(sig: Signed): string {
  return sig.type === "thinking"
    ? "thinking block's signature"
    : "function call's thoughtSignature";
}
