/**
 * The cross-turn verdicts of a pasted multi-turn trace (`gatecheck check` with a chain file,
 * exchange-chain.ts): each turn's forwarded request against what the backend said the turn
 * before, as the loop judge links a loop's turns (turn-link.ts). Per turn after the first:
 *
 * - `tool-results`: the results that reached the backend answer the calls it issued the turn
 *   before, in order, under the ids it issued (a gateway may rewrite an id for its client if it
 *   restores it upstream): preserved; results missing: dropped; answering other ids or out of
 *   order: mangled (`id-not-restored`).
 * - `signature`, one per signed block or call the backend sent: back byte for byte in its own
 *   slot: preserved; the client sent it back and the backend did not get it, or the client
 *   never got it from the gateway: dropped; the client got it and did not send it back: not-run
 *   (nothing for the gateway to carry).
 * - `reasoning`: the reasoning text, judged as a signature is.
 *
 * Pure: the turns in, the verdicts out.
 */
import type { CanonicalRequest, Part } from "../dialects/canonical.ts";
import type { Exchange } from "../probes/exchange.ts";
import type { VerdictKind } from "../probes/verdict.ts";
import {
  forwardedRequest,
  LINK_BY,
  linkResults,
  partsOf,
  signatureCameBack,
  signatureRequired,
  signatureSlot,
  signedParts,
  upstreamReply,
} from "./turn-link.ts";

export type ChainSubject = "tool-results" | "signature" | "reasoning";

export interface ChainVerdict {
  /** The later turn of the two (1-based): its forwarded request is judged. */
  turn: number;
  subject: ChainSubject;
  verdict: VerdictKind;
  reason: string;
  cause?: "id-not-restored";
}

/** What the backend said at a turn: the parts of its reply, or why there are none. */
function issuedAt(turn: Exchange): Part[] | string {
  const reply = turn.upstreamReply;
  if (!reply) return "it has no upstreamReply (what the backend answered)";
  const read = upstreamReply(turn.route.backend, reply, turn.mode);
  return read ? read.parts : `its upstreamReply cannot be read as ${turn.route.backend}`;
}

/** The request of a turn that reached the backend: the first forwarded one it can read. */
function reachedBackend(turn: Exchange): CanonicalRequest | undefined {
  for (const f of turn.forwarded ?? []) {
    const read = forwardedRequest(turn.route.backend, f.body, f.path);
    if (read && read.messages.length > 0) return read;
  }
  return undefined;
}

/**
 * Where a value the backend sent (a signature, its reasoning) went when it did not come back:
 * the client echoed it (the gateway lost it on the way up), never got it (lost on the way
 * down), or got it and kept it (not the gateway's to carry).
 */
function notBack(
  value: string,
  earlier: Exchange,
  later: Exchange,
  what: string,
  turn: number,
): { verdict: VerdictKind; reason: string } {
  if (later.clientRequest?.rawBody.includes(value)) {
    return {
      verdict: "dropped",
      reason: `the client sent the ${what} back at turn ${turn}; the backend did not get it`,
    };
  }
  const got = earlier.clientResponse?.body;
  if (got === undefined) {
    return {
      verdict: "not-run",
      reason: `the ${what} did not come back at turn ${turn}, and turn ${turn - 1} has no clientResponse to tell whether the client ever got it`,
    };
  }
  return got.includes(value)
    ? {
        verdict: "not-run",
        reason: `the client got the ${what} at turn ${turn - 1} and did not send it back: nothing for the gateway to carry`,
      }
    : {
        verdict: "dropped",
        reason: `the client never got the ${what} from the gateway at turn ${turn - 1} (it is not in that turn's clientResponse), so it could not come back at turn ${turn}`,
      };
}

function linkVerdict(
  earlier: Exchange,
  issued: readonly Part[],
  sentBack: readonly Part[],
  turn: number,
): ChainVerdict | undefined {
  const backend = earlier.route.backend;
  const calls = issued.flatMap((p) => (p.type === "tool-call" ? [p] : []));
  if (calls.length === 0) return undefined;
  const all = sentBack.flatMap((p) => (p.type === "tool-result" ? [p] : []));
  // A history ends with the results of the latest calls; earlier results answer earlier turns.
  const results = all.slice(Math.max(0, all.length - calls.length));
  const { want, got, linked } = linkResults(backend, calls, results);
  const see = LINK_BY[backend].see;
  if (results.length < calls.length) {
    return {
      turn,
      subject: "tool-results",
      verdict: "dropped",
      reason: `the backend issued ${calls.length} call(s) ${JSON.stringify(want)} at turn ${turn - 1}; ${results.length} result(s) reached it at turn ${turn}; see ${see}`,
    };
  }
  return linked
    ? {
        turn,
        subject: "tool-results",
        verdict: "preserved",
        reason: `the results answer the backend's calls ${JSON.stringify(want)} of turn ${turn - 1}, in order`,
      }
    : {
        turn,
        subject: "tool-results",
        verdict: "mangled",
        cause: "id-not-restored",
        reason: `the backend issued ${JSON.stringify(want)} at turn ${turn - 1}; the results that reached it at turn ${turn} answer ${JSON.stringify(got)}; see ${see}`,
      };
}

/** The cross-turn verdicts of a chain (its turns in order, one route). */
export function judgeChain(turns: readonly Exchange[]): ChainVerdict[] {
  const verdicts: ChainVerdict[] = [];
  for (let i = 1; i < turns.length; i++) {
    const earlier = turns[i - 1] as Exchange;
    const later = turns[i] as Exchange;
    const turn = i + 1;
    const issued = issuedAt(earlier);
    const request = reachedBackend(later);
    const sentBack = request && partsOf(request.messages);
    if (typeof issued === "string" || !request || !sentBack) {
      verdicts.push({
        turn,
        subject: "tool-results",
        verdict: "not-run",
        reason:
          typeof issued === "string"
            ? `turn ${turn - 1} cannot be linked: ${issued}`
            : `nothing of turn ${turn} that reached the backend can be read as ${later.route.backend}`,
      });
      continue;
    }
    const link = linkVerdict(earlier, issued, sentBack, turn);
    if (link) verdicts.push(link);
    for (const sig of signedParts(issued)) {
      const slot = signatureSlot(sig);
      if (signatureCameBack(sig, sentBack)) {
        verdicts.push({
          turn,
          subject: "signature",
          verdict: "preserved",
          reason: `the ${slot} came back in its slot as sent`,
        });
        continue;
      }
      const why = notBack(sig.signature, earlier, later, slot, turn);
      const required = signatureRequired(earlier.route.backend, sig, request);
      const refuses =
        why.verdict !== "dropped"
          ? ""
          : required.required
            ? ` (its provider refuses such a tool loop: ${required.see})`
            : required.why
              ? ` (${required.why})`
              : "";
      verdicts.push({ turn, subject: "signature", ...why, reason: `${why.reason}${refuses}` });
    }
    const reasoning = issued.find((p) => p.type === "reasoning");
    if (reasoning) {
      const back = sentBack.some((p) => p.type === "reasoning" && p.text === reasoning.text);
      verdicts.push(
        back
          ? {
              turn,
              subject: "reasoning",
              verdict: "preserved",
              reason: "the reasoning text came back as sent",
            }
          : {
              turn,
              subject: "reasoning",
              ...notBack(reasoning.text, earlier, later, "reasoning text", turn),
            },
      );
    }
  }
  return verdicts;
}
