/**
 * Judging in the worker gives what judging in this thread gives, on real attempts through
 * `direct` (every client dialect, both modes, the SDK view included), and a worker that
 * cannot start or dies loses no attempt.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { type AttemptTarget, judgeSent, mainLeg, sendAttempt } from "./attempt.ts";
import { JudgeThread } from "./judge-thread.ts";
import { judgeWire, type WireJudgeInput } from "./judge-wire.ts";
import { ROUTE_API_KEY } from "./run-sweep.ts";

const PROBE_IDS = [
  "oc-stop-string",
  "oc-reply-finish-tool-calls",
  "am-reply-finish-tool-calls",
  "or-reply-text",
];

let mock: MockHandle;
const inputs: WireJudgeInput[] = [];
const dir = mkdtempSync(join(tmpdir(), "gatecheck-judge-thread-"));

/** What an attempt hands its judge, for real attempts through `direct`. */
beforeAll(async () => {
  mock = await startMock();
  const probes = CORPUS.filter((p) => PROBE_IDS.includes(p.id));
  expect(probes.map((p) => p.id).sort()).toEqual([...PROBE_IDS].sort());
  for (const probe of probes) {
    const route = direct
      .routes({ name: "direct", version: "0" })
      .find((r) => r.client === probe.client);
    if (!route) throw new Error(`direct has no route for ${probe.client}`);
    for (const mode of ["non-stream", "stream"] as const) {
      const target: AttemptTarget = {
        baseUrl: mock.url,
        mock,
        route,
        apiKey: ROUTE_API_KEY,
        backendModel: "gatecheck-mock-model",
        timeoutMs: 10_000,
        judge: (input) => {
          inputs.push(structuredClone(input));
          return judgeWire(input);
        },
      };
      const plan = mainLeg(probe, mode);
      await judgeSent(target, plan, await sendAttempt(target, plan));
    }
  }
});

afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

function workerFile(name: string, text: string): () => Promise<string> {
  const file = join(dir, name);
  writeFileSync(file, text);
  return async () => file;
}

describe("JudgeThread", () => {
  it("judges in the worker exactly what this thread judges", async () => {
    expect(inputs).toHaveLength(PROBE_IDS.length * 2);
    const thread = new JudgeThread();
    try {
      expect(await thread.running).toBe(true);
      const inWorker = await Promise.all(inputs.map((input) => thread.judge(input)));
      const here = await Promise.all(inputs.map((input) => judgeWire(input)));
      expect(thread.judged).toEqual({ worker: inputs.length, here: 0 });
      expect(inWorker).toEqual(here);
      // The SDK read the bytes in the worker too (a Buffer crosses as a Uint8Array).
      expect(inWorker.filter((j) => j.clientSdk?.view?.accepted)).toHaveLength(inputs.length);
    } finally {
      await thread.close();
    }
  });

  it("judges here when the worker cannot be built, and says so once", async () => {
    const notes: string[] = [];
    const thread = new JudgeThread({
      entry: () => Promise.reject(new Error("esbuild is missing")),
      onFailure: (message) => notes.push(message),
    });
    const judged = await Promise.all(inputs.slice(0, 3).map((input) => thread.judge(input)));
    expect(judged).toEqual(await Promise.all(inputs.slice(0, 3).map(judgeWire)));
    expect(notes).toEqual([
      "cannot build the judging worker: esbuild is missing; judging in the main thread from here on",
    ]);
    await thread.close();
  });

  it("judges here again the attempts a dying worker held: none is lost", async () => {
    const notes: string[] = [];
    const thread = new JudgeThread({
      entry: workerFile(
        "dying-worker.mjs",
        `import { parentPort } from "node:worker_threads";
         parentPort.postMessage({ ready: true });
         parentPort.on("message", () => process.exit(3));`,
      ),
      onFailure: (message) => notes.push(message),
    });
    const judged = await Promise.all(inputs.map((input) => thread.judge(input)));
    expect(judged).toEqual(await Promise.all(inputs.map(judgeWire)));
    expect(notes).toEqual([
      "the judging worker exited with code 3; judging in the main thread from here on",
    ]);
    expect(thread.judged.here).toBe(inputs.length);
    await thread.close();
  });

  it("judges here, not waiting, once the worker holds maxQueued attempts", async () => {
    const thread = new JudgeThread({
      maxQueued: 2,
      // A worker that says it is ready and never answers: only the first two wait for it.
      entry: workerFile(
        "silent-worker.mjs",
        `import { parentPort } from "node:worker_threads";
         parentPort.postMessage({ ready: true });
         parentPort.on("message", () => {});`,
      ),
    });
    expect(await thread.running).toBe(true);
    const waiting = [
      thread.judge(inputs[0] as WireJudgeInput),
      thread.judge(inputs[1] as WireJudgeInput),
    ];
    const here = await thread.judge(inputs[2] as WireJudgeInput);
    expect(here).toEqual(await judgeWire(inputs[2] as WireJudgeInput));
    expect(thread.judged).toEqual({ worker: 2, here: 1 });
    // Closing judges what the worker still owes here.
    await thread.close();
    expect(await Promise.all(waiting)).toEqual(
      await Promise.all(inputs.slice(0, 2).map(judgeWire)),
    );
  });
});
