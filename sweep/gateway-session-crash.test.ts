/**
 * A gateway that died but whose exit event Node has not delivered yet: the kernel closes a
 * dying process's sockets before Node reaps it, so an attempt can see its connection cut
 * first (the restart test in run-sweep.test.ts once did, at a load average of 7). The
 * session must still count that as a crash, restart the gateway and send the attempt again
 * (after an agent loop in `hold` too); send again an attempt the dead gateway cut while its
 * restart was under way; and give up, never judging the cut, when the restarted one dies as
 * well. The dead gateway is a test double (its process and its exit event are what is
 * faked); the transport error is real (a listener that cuts every connection), the restart
 * is `direct`, and the resent attempt reaches the real mock.
 */
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { ExitInfo, GatewayAdapter, RunningGateway } from "../gateways/adapter.ts";
import { direct } from "../gateways/adapters/direct.ts";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { mainLeg } from "./attempt.ts";
import { GatewaySession, NOT_WANTED } from "./gateway-session.ts";
import { ROUTE_API_KEY } from "./run-sweep.ts";

let mock: MockHandle;
let cutter: Server;
let cutterUrl: string;
/** Connections cut so far in this test. */
let cuts = 0;

beforeAll(async () => {
  mock = await startMock();
  // What a dead gateway's port does to a client: the connection is cut, nothing answers.
  cutter = createServer((socket) => {
    socket.destroy();
    cuts += 1;
  });
  await new Promise<void>((resolve) => cutter.listen(0, "127.0.0.1", resolve));
  const address = cutter.address();
  if (!address || typeof address === "string") throw new Error("the cutter has no port");
  cutterUrl = `http://127.0.0.1:${address.port}`;
});

beforeEach(() => {
  cuts = 0;
});

afterAll(async () => {
  await new Promise((resolve) => cutter.close(resolve));
  await mock.close();
});

const spec = { name: "direct", version: "0" };
const probe = CORPUS.find((p) => p.id === "oc-stop-string");
const route = direct.routes(spec).find((r) => r.client === "openai-chat");

/**
 * A gateway whose process has died (a zombie: `dying()` says so) and whose exit event is
 * still to come: Node delivers it on a later turn, which here comes only once `waiters`
 * attempts wait for it, so every transport error is seen first, whatever the machine's load.
 */
function diedBeforeItsExitEvent(waiters = 1): RunningGateway {
  let exit: ExitInfo | undefined;
  let deliver = () => {};
  const whenExited = new Promise<ExitInfo>((resolve) => {
    deliver = () => {
      exit = { exitCode: 1 };
      resolve(exit);
    };
  });
  let waitedFor = 0;
  return {
    label: "crashing@1",
    baseUrl: cutterUrl,
    pid: 2_147_483_000,
    logPath: "/nonexistent/crashing.log",
    attached: false,
    exited: () => exit,
    get whenExited() {
      waitedFor += 1;
      if (waitedFor === waiters) setImmediate(deliver);
      return whenExited;
    },
    dying: () => true,
    logTail: () => ["crashing on request 1"],
    stop: async () => ({ gone: true, how: "already-exited", ...(exit && { exit }) }),
  };
}

function session(
  notes: string[],
  over: {
    concurrency?: number;
    restartWith?: GatewayAdapter;
    mock?: MockHandle;
    onNote?: (note: string) => void;
  } = {},
): GatewaySession {
  const concurrency = over.concurrency ?? 1;
  return new GatewaySession(
    diedBeforeItsExitEvent(concurrency),
    over.restartWith ?? direct,
    spec,
    { workdir: "/nonexistent", mockUrl: () => mock.url },
    over.mock ?? mock,
    {
      apiKey: ROUTE_API_KEY,
      backendModel: "gatecheck-mock-model",
      attemptTimeoutMs: 10_000,
      concurrency,
    },
    (note) => {
      notes.push(note);
      over.onNote?.(note);
    },
  );
}

it("restarts a gateway whose connection was cut before its exit event came, and sends the attempt again", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  const notes: string[] = [];
  const before = mock.records().length;
  const outcome = await session(notes).attempt(route, mainLeg(probe, "non-stream"));
  if (!outcome || outcome === NOT_WANTED) throw new Error(`no outcome: ${outcome}`);
  // Judged on the restarted gateway's answer, not as the dead one's transport failure.
  expect(outcome.status).toBe("ok");
  expect(outcome.verdict.verdict).toBe("preserved");
  expect(mock.records().length - before).toBe(1);
  expect(notes).toEqual(["crashed (exit code 1); restarting once"]);
});

it("restarts it after an agent loop whose requests were cut before its exit event came", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  const notes: string[] = [];
  const one = session(notes);
  const loop = await one.hold(route, async ({ baseUrl }) => {
    try {
      await fetch(`${baseUrl}${route.ingressPath}`, { method: "POST", body: "{}" });
      return "answered";
    } catch {
      return "cut";
    }
  });
  expect(loop).toBe("cut");
  expect(notes).toEqual(["crashed (exit code 1); restarting once"]);
  // What runs next goes to the restarted gateway.
  const outcome = await one.attempt(route, mainLeg(probe, "non-stream"));
  if (!outcome || outcome === NOT_WANTED) throw new Error(`no outcome: ${outcome}`);
  expect(outcome.verdict.verdict).toBe("preserved");
});

it("sends again every attempt in flight that one crash cut, restarting it once", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  // Both attempts are cut and both wait for the exit event (it comes once both do): one
  // restart, both sent again.
  const notes: string[] = [];
  const two = session(notes, { concurrency: 2 });
  const before = mock.records().length;
  const outcomes = await Promise.all(
    [1, 2].map(() => two.attempt(route, mainLeg(probe, "non-stream"))),
  );
  for (const outcome of outcomes) {
    if (!outcome || outcome === NOT_WANTED) throw new Error(`no outcome: ${outcome}`);
    expect(outcome.status).toBe("ok");
    expect(outcome.verdict.verdict).toBe("preserved");
  }
  expect(mock.records().length - before).toBe(2);
  expect(notes).toEqual(["crashed (exit code 1); restarting once"]);
});

it("sends again an attempt cut by the dead gateway while its restart was still under way", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  // A real gateway takes seconds to be ready again; meanwhile the next attempt takes the free
  // slot, goes to the dead one and is cut. The restart here finishes a turn after that
  // attempt's send is over: its second read of the mock for its nonce (collect-records.ts: an
  // empty read waits and reads once more) is the last thing it does before it is decided on.
  let ready = () => {};
  const launched = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const slowToRestart: GatewayAdapter = {
    ...direct,
    launch: async (ctx) => {
      await launched;
      return direct.launch(ctx);
    },
  };
  let restartBegun = false;
  const reads = new Map<string, number>();
  const watched = new Proxy(mock, {
    get(target, key, receiver) {
      if (key !== "records") return Reflect.get(target, key, receiver);
      return (filter?: { nonce?: string }) => {
        const nonce = filter?.nonce;
        if (restartBegun && nonce) {
          reads.set(nonce, (reads.get(nonce) ?? 0) + 1);
          if (reads.get(nonce) === 2) setImmediate(ready);
        }
        return target.records(filter);
      };
    },
  });
  const notes: string[] = [];
  let next: ReturnType<GatewaySession["attempt"]> | undefined;
  const one = session(notes, {
    restartWith: slowToRestart,
    mock: watched,
    onNote: (note) => {
      if (!/restarting once/.test(note)) return;
      restartBegun = true;
      next = one.attempt(route, mainLeg(probe, "non-stream"));
    },
  });
  const before = mock.records().length;
  const first = await one.attempt(route, mainLeg(probe, "non-stream"));
  const second = await next;
  expect(cuts).toBe(2);
  for (const outcome of [first, second]) {
    if (!outcome || outcome === NOT_WANTED) throw new Error(`no outcome: ${outcome}`);
    expect(outcome.status).toBe("ok");
    expect(outcome.verdict.verdict).toBe("preserved");
  }
  expect(mock.records().length - before).toBe(2);
  expect(notes).toEqual(["crashed (exit code 1); restarting once"]);
});

it("gives up, never judges the cut, when the restarted gateway dies under the attempt sent again", async () => {
  if (!probe || !route) throw new Error("the corpus or direct lost oc-stop-string's route");
  const diesToo: GatewayAdapter = { ...direct, launch: async () => diedBeforeItsExitEvent() };
  const notes: string[] = [];
  const one = session(notes, { restartWith: diesToo });
  const outcome = await one.attempt(route, mainLeg(probe, "non-stream"));
  expect(outcome).toBeUndefined();
  expect(one.deadReason).toMatch(
    /^crashed twice \(exit code 1\); log: \/nonexistent\/crashing\.log/,
  );
  expect(notes).toEqual([
    "crashed (exit code 1); restarting once",
    expect.stringMatching(/^gave up: crashed twice/),
  ]);
  expect(cuts).toBe(2);
});
