/**
 * Two clients through one gateway: a credential that sticks. Client A runs the plain loop
 * with its key, then client B runs it with its own; nothing B's requests bring to the backend
 * may carry A's key, nor any other client key the gateway saw before (a gateway that caches
 * the first caller's key per route, or keeps it on a shared upstream client, bills B's run to
 * A's account and hands A's key to B's provider). The mock's records hold keys only as their
 * redaction tags (the same key gives the same tag), so the others' tags are looked for in B's
 * records, headers and body.
 *
 * Not applicable where the route sends one fixed key whatever the client's (any-llm's
 * virtual key): both clients would send the same key, and no stick can be told.
 */
import { findSecretIn } from "../dialects/credential-found.ts";
import { redactionTag } from "../dialects/credentials.ts";
import { type Bytes, bytesBuffer } from "../dialects/wire/bytes.ts";
import type { GatewayRoute } from "../gateways/adapter.ts";
import type { MockRecord } from "../mock-upstream/index.ts";
import { broke, type LoopOutcome } from "./loop-outcome.ts";
import { LOOP_VARIANTS, type LoopVariant } from "./loop-script.ts";
import { type LoopRun, type LoopTarget, runLoop } from "./run-loop.ts";

/** Two keys of OpenAI's shape, so every record redacts them to their tags. */
export const CLIENT_KEYS = {
  first: "sk-gatecheck-loop-client-a-0000000000000000",
  second: "sk-gatecheck-loop-client-b-1111111111111111",
} as const;

export interface SecondClientRun {
  /** Client A's plain loop, then client B's; the outcome is B's, judged for the stick. */
  first: LoopRun;
  second: LoopRun;
  outcome: LoopOutcome;
}

const PLAIN = LOOP_VARIANTS.find((v) => v.id === "plain") as LoopVariant;

/**
 * Why the pair cannot run on this route, or undefined when it can: a route whose headers are
 * the same whatever key the client holds sends a fixed key, so two clients look the same.
 */
export function secondClientNotApplicable(route: GatewayRoute): string | undefined {
  const headersOf = (apiKey: string) =>
    JSON.stringify(route.headers({ mockUrl: () => "http://127.0.0.1", apiKey }));
  return headersOf(CLIENT_KEYS.first) === headersOf(CLIENT_KEYS.second)
    ? "the route sends one fixed client key whatever the caller's, so two clients cannot be told apart"
    : undefined;
}

/** The body as text: its UTF-8, or its bytes one to a character (a tag is ASCII). */
function bodyText(body: Bytes): string {
  return body.encoding === "utf8" ? body.data : bytesBuffer(body).toString("latin1");
}

/** Where in a forwarded record a tag appears: a header's name, the query or the body. */
function whereTag(record: MockRecord, tag: string): string | undefined {
  const { headers, path, body } = record.request;
  const found = findSecretIn({ headers, path, body: bodyText(body) }, [tag]);
  if (found?.place === "header") return `its ${found.name} header`;
  return found ? `its ${found.place}` : undefined;
}

/**
 * Judges client B's loop for a key that is not B's. `others` are the keys other clients of
 * the gateway sent before B (A's, and the sweep's route key its other loops and cells send).
 * The turn is that of B's first request found carrying one (B's task is its first request).
 */
export function judgeSecondClient(
  second: LoopRun,
  others: readonly { who: string; key: string }[],
): LoopOutcome {
  for (const { who, key } of others) {
    const tag = redactionTag(key);
    const stuck = second.forwarded.flatMap((record, index) => {
      const where = whereTag(record, tag);
      return where ? [{ index, where }] : [];
    });
    const [found] = stuck;
    if (!found) continue;
    return broke(
      found.index === 0 ? 1 : 2,
      "credential-stuck",
      `client B's request reached the backend with ${who} key ${tag} in ${found.where} (${stuck.length} of B's ${second.forwarded.length} forwarded request(s)); B's own key is ${redactionTag(CLIENT_KEYS.second)}`,
      second.outcome.losses,
    );
  }
  return second.outcome;
}

/** A's plain loop, then B's, on the same gateway route; `routeKey`: the sweep's key. */
export async function runSecondClient(
  target: Omit<LoopTarget, "apiKey">,
  routeKey: string,
): Promise<SecondClientRun> {
  const first = await runLoop({ ...target, apiKey: CLIENT_KEYS.first }, PLAIN);
  const second = await runLoop({ ...target, apiKey: CLIENT_KEYS.second }, PLAIN);
  const outcome = judgeSecondClient(second, [
    { who: "client A's", key: CLIENT_KEYS.first },
    { who: "the sweep's other clients'", key: routeKey },
  ]);
  return { first, second, outcome };
}
