/**
 * A strict provider's rejection as a finding: when a persona's listener (persona-mocks.ts)
 * rejected what the gateway forwarded and the client got the failure, the probe's verdict is
 * `rejected` with cause `strict-provider`, and the reason names the provider's rule, its
 * message and the rule's reference. The lens alone would see only a failed request; here
 * the failure is the provider refusing the gateway's translation. Judged from the stored
 * records, so `rescore` gives the same verdict.
 */
import { getPersona } from "../mock-upstream/personas/index.ts";
import type { Verdict } from "../probes/verdict.ts";
import type { ForwardedRecord } from "./exchange-from-wire.ts";

export interface PersonaRejection {
  persona: string;
  rule: string;
  /** The provider's error message as the listener answered it. */
  message: string;
  /** The rule's first citation. */
  see: string;
}

function errorMessage(body: string | undefined): string {
  try {
    const parsed = JSON.parse(body ?? "") as unknown;
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    const message = (first as { error?: { message?: unknown } })?.error?.message;
    if (typeof message === "string") return message;
  } catch {
    // not JSON: the body as it is
  }
  return body ?? "";
}

/** The first persona rejection among an attempt's forwarded requests. */
export function personaRejection(
  forwarded: readonly ForwardedRecord[],
): PersonaRejection | undefined {
  for (const record of forwarded) {
    const rule = record.reply?.personaRule;
    const persona = record.reply?.persona;
    if (!rule || !persona) continue;
    const citations = getPersona(persona)?.rules.find((r) => r.id === rule)?.citations ?? [];
    const body = record.reply?.bodyEncoding === "base64" ? undefined : record.reply?.body;
    return {
      persona,
      rule,
      message: errorMessage(body),
      see: citations[0] ?? "mock-upstream/personas/",
    };
  }
  return undefined;
}

const MESSAGE_CHARS = 240;

/**
 * The probe's verdict, and its place among every verdict, as a strict provider's rejection
 * when one answered and the client saw a failure. A client that got a success although the
 * provider refused keeps the lens's own verdict (that is the lens's finding to name).
 */
export function withPersonaRejection<T extends { verdicts: Verdict[]; verdict: Verdict }>(
  judged: T,
  forwarded: readonly ForwardedRecord[],
  clientStatus: number,
): T {
  if (clientStatus < 300) return judged;
  const rejection = personaRejection(forwarded);
  if (!rejection) return judged;
  const message =
    rejection.message.length > MESSAGE_CHARS
      ? `${rejection.message.slice(0, MESSAGE_CHARS)}…`
      : rejection.message;
  const verdict: Verdict = {
    ...judged.verdict,
    verdict: "rejected",
    cause: "strict-provider",
    reason: `${rejection.persona} rejected what the gateway forwarded (rule ${rejection.rule}: "${message}"; see ${rejection.see}); the client got ${clientStatus}`,
  };
  return {
    ...judged,
    verdict,
    verdicts: judged.verdicts.map((v) => (v === judged.verdict ? verdict : v)),
  };
}
