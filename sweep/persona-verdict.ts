/**
 * A strict provider's rejection as a finding: when a persona's listener (persona-mocks.ts)
 * rejected what the gateway forwarded and the client got the failure, the probe's verdict is
 * `rejected` with cause `strict-provider`, and the reason names the provider's rule, its
 * message and the rule's reference. The lens alone would see only a failed request; here
 * the failure is the provider refusing the gateway's translation. Judged from what the
 * attempt stores (its exchange's context names the rejection), so `rescore` gives the same
 * verdict.
 */
import type { ExchangeContext } from "../dialects/wire/exchange.ts";
import { getPersona } from "../mock-upstream/personas/index.ts";
import type { Verdict } from "../probes/verdict.ts";

type StrictProvider = NonNullable<ExchangeContext["strictProvider"]>;

export interface PersonaRejection extends StrictProvider {
  /** The rule's first citation. */
  see: string;
}

/**
 * A strict provider's rejection as the exchange's context holds it (the first among the
 * attempt's forwarded requests, dialects/wire/forwarded-side.ts), with its rule's citation.
 */
export function personaRejection(
  rejected: StrictProvider | undefined,
): PersonaRejection | undefined {
  if (!rejected) return undefined;
  const citations =
    getPersona(rejected.persona)?.rules.find((r) => r.id === rejected.rule)?.citations ?? [];
  return { ...rejected, see: citations[0] ?? "mock-upstream/personas/" };
}

const MESSAGE_CHARS = 240;

/**
 * The probe's verdict, and its place among every verdict, as a strict provider's rejection
 * when one answered and the client saw a failure. A client that got a success although the
 * provider refused keeps the lens's own verdict (that is the lens's finding to name).
 */
export function withPersonaRejection<T extends { verdicts: Verdict[]; verdict: Verdict }>(
  judged: T,
  rejected: StrictProvider | undefined,
  clientStatus: number,
): T {
  if (clientStatus < 300) return judged;
  const rejection = personaRejection(rejected);
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
