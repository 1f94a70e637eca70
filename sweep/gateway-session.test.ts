/**
 * A session's request slots: `--concurrency` bounds the requests in flight to the gateway,
 * not the attempts being judged, and an attempt no longer wanted once a slot frees sends
 * nothing. Real attempts through `direct` against the mock.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { attachedGateway } from "../gateways/start.ts";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { mainLeg } from "./attempt.ts";
import { GatewaySession, NOT_WANTED } from "./gateway-session.ts";
import { judgeWire, type WireJudge } from "./judge-wire.ts";
import { ROUTE_API_KEY } from "./run-sweep.ts";

let mock: MockHandle;

beforeAll(async () => {
  mock = await startMock();
});

afterAll(async () => {
  await mock.close();
});

const spec = { name: "direct", version: "0" };
const probe = CORPUS.find((p) => p.id === "oc-stop-string");
const route = direct.routes(spec).find((r) => r.client === "openai-chat");

function session(judge: WireJudge, concurrency: number, timerSlotsPerSlot = 0): GatewaySession {
  return new GatewaySession(
    attachedGateway("direct", mock.url),
    { ...direct, timerSlotsPerSlot },
    spec,
    { workdir: "/nonexistent", mockUrl: () => mock.url },
    mock,
    {
      apiKey: ROUTE_API_KEY,
      backendModel: "gatecheck-mock-model",
      attemptTimeoutMs: 10_000,
      concurrency,
      judge,
    },
    () => {},
  );
}

it("sends the next request while an earlier attempt is still being judged", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  const held: (() => void)[] = [];
  // Judging waits until every attempt's request has reached the mock: with one slot, that
  // happens only if a slot is free while an earlier attempt is being judged.
  const judge: WireJudge = async (input) => {
    await new Promise<void>((resolve) => {
      held.push(resolve);
      if (held.length === 3) for (const release of held) release();
    });
    return judgeWire(input);
  };
  const one = session(judge, 1);
  const before = mock.records().length;
  const outcomes = await Promise.all(
    [1, 2, 3].map(() => one.attempt(route, mainLeg(probe, "non-stream"))),
  );
  expect(mock.records().length - before).toBe(3);
  for (const outcome of outcomes) {
    if (!outcome || outcome === NOT_WANTED) throw new Error(`no outcome: ${outcome}`);
    expect(outcome.verdict.verdict).toBe("preserved");
  }
});

it("bounds the requests in flight by its slots, whatever the attempts waiting", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  // Every judgement waits until three are under way at once: with two slots that can only
  // happen when a slot is released before its attempt is judged (else this never resolves
  // and the test times out). No clock decides it.
  let judging = 0;
  let peakJudging = 0;
  let release = () => {};
  const threeJudging = new Promise<void>((resolve) => {
    release = resolve;
  });
  const judge: WireJudge = async (input) => {
    judging++;
    peakJudging = Math.max(peakJudging, judging);
    if (judging >= 3) release();
    await threeJudging;
    judging--;
    return judgeWire(input);
  };
  const one = session(judge, 2);
  const outcomes = await Promise.all(
    Array.from({ length: 6 }, () => one.attempt(route, mainLeg(probe, "stream"))),
  );
  expect(outcomes.every((o) => o && o !== NOT_WANTED && o.status === "ok")).toBe(true);
  // Judgements overlapped beyond the two slots: the slots held requests, not judging.
  expect(peakJudging).toBeGreaterThan(2);
});

it("sends nothing for an attempt no longer wanted once its slot comes free", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  const before = mock.records().length;
  const outcome = await session(judgeWire, 1).attempt(
    route,
    mainLeg(probe, "non-stream"),
    () => false,
  );
  expect(outcome).toBe(NOT_WANTED);
  expect(mock.records().length).toBe(before);
});

/** The corpus's slow upstream, slower: the mock holds its reply for 6 s. */
function slowProbe(): Probe {
  const corpusSlow = CORPUS.find((p) => p.id === "oc-failure-deadline-slow-upstream");
  if (!corpusSlow?.upstream || !("reply" in corpusSlow.upstream)) {
    throw new Error("the corpus lost oc-failure-deadline-slow-upstream, or its reply");
  }
  return { ...corpusSlow, upstream: { ...corpusSlow.upstream, wire: { headersDelayMs: 6_000 } } };
}

it("lets an attempt that waits on a timer hold none of the slots that keep the gateway busy", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  // A gateway measured to hold nothing while it waits (LiteLLM) gets timer slots of its own:
  // with one slot shared by both, the quick attempt could not be sent before the slow one's
  // record is in.
  const one = session(judgeWire, 1, 4);
  expect(one.timerSlots).toBe(4);
  let slowDone = false;
  const waiting = one.attempt(route, mainLeg(slowProbe(), "non-stream")).then((outcome) => {
    slowDone = true;
    return outcome;
  });
  const quick = await one.attempt(route, mainLeg(probe, "non-stream"));
  expect(slowDone).toBe(false);
  expect(quick && quick !== NOT_WANTED && quick.verdict.verdict).toBe("preserved");
  const slowOutcome = await waiting;
  expect(slowOutcome && slowOutcome !== NOT_WANTED && slowOutcome.status).toBe("ok");
});

it("makes an attempt that waits on a timer share the slots where the gateway gives it none", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  // The default (any-llm and every gateway not measured): a gateway may hold a resource for
  // each request it sleeps on, so those requests count against --concurrency like any other.
  const one = session(judgeWire, 1);
  expect(one.timerSlots).toBe(0);
  let slowDone = false;
  const waiting = one.attempt(route, mainLeg(slowProbe(), "non-stream")).then((outcome) => {
    slowDone = true;
    return outcome;
  });
  const quick = await one.attempt(route, mainLeg(probe, "non-stream"));
  expect(slowDone).toBe(true);
  expect(quick && quick !== NOT_WANTED && quick.verdict.verdict).toBe("preserved");
  const slowOutcome = await waiting;
  expect(slowOutcome && slowOutcome !== NOT_WANTED && slowOutcome.status).toBe("ok");
});
