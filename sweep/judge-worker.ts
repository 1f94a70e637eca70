/**
 * The sweep's judging worker thread (judge-thread.ts): judges the attempts the main thread
 * posts, each answered by id as soon as it is judged. It says `ready` once its modules are
 * loaded, so the main thread judges by itself until then.
 */
import { parentPort } from "node:worker_threads";
import { judgeWire, type WireJudgeInput, type WireJudgement } from "./judge-wire.ts";

export interface JudgeJob {
  id: number;
  input: WireJudgeInput;
}

export type JudgeWorkerMessage =
  | { ready: true }
  | { id: number; ok: true; judged: WireJudgement }
  | { id: number; ok: false; error: string };

const port = parentPort;
if (!port) throw new Error("judge-worker.ts runs as a worker thread (see judge-thread.ts)");

port.on("message", (job: JudgeJob) => {
  judgeWire(job.input).then(
    (judged) => port.postMessage({ id: job.id, ok: true, judged } satisfies JudgeWorkerMessage),
    (error: Error) =>
      port.postMessage({
        id: job.id,
        ok: false,
        error: error?.message ?? String(error),
      } satisfies JudgeWorkerMessage),
  );
});
port.postMessage({ ready: true } satisfies JudgeWorkerMessage);
