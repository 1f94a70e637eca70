// The recorder thread's entry: a worker thread starts with a bare module loader, so it
// registers tsx (as scripts/gatecheck.mjs does for the CLI) before loading our TypeScript.
// A thread that cannot load says so on the reply port, so the main thread's waiting call
// ends with the reason instead of waiting out its timeout.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
try {
  await import("./record-worker.ts");
} catch (error) {
  workerData.replies.postMessage({ fatal: `recorder thread failed to start: ${error?.message}` });
  Atomics.store(workerData.signal, 0, 1);
  Atomics.notify(workerData.signal, 0);
  throw error;
}
