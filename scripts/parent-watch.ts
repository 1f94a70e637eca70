/**
 * A child process that must not outlive its parent, even while its main thread is blocked
 * (a query looping inside SQLite never returns to JavaScript, so no event of ours runs): a
 * worker thread watches the parent and kills this process when the parent is gone (we were
 * reparented). Node has no PR_SET_PDEATHSIG; polling `process.ppid` is the portable watch.
 */
import { Worker } from "node:worker_threads";

/** How often the watch looks: the child outlives its parent by at most this long. */
const WATCH_MS = 200;

const WATCH = `
const { workerData } = require("node:worker_threads");
setInterval(() => {
  if (process.ppid !== workerData.parent) process.kill(process.pid, "SIGKILL");
}, workerData.everyMs);
`;

export function dieWithParent(parent: number): void {
  if (process.ppid !== parent) process.kill(process.pid, "SIGKILL");
  new Worker(WATCH, { eval: true, workerData: { parent, everyMs: WATCH_MS } }).unref();
}
