/**
 * How a server command (`mock`, `serve`) learns it should stop: SIGINT, SIGTERM or SIGHUP,
 * or, when `npx` started it, the end of the processes npx put between the terminal and us.
 *
 * `npx gatecheck mock` runs npm, which runs `sh -c "gatecheck mock"`, which runs us. A signal
 * sent to the npm process alone (a supervisor stopping what it started) is forwarded by npm
 * to the shell only; the shell dies of it and we would be left running, listening, with
 * nobody to stop us. So under npx we watch the two: our parent changing (the shell is gone)
 * or npm's process ending, and stop as on SIGTERM. Not outside npx: a server started with
 * `nohup ... &` is meant to outlive its shell.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** How often the npx watch looks. */
const WATCH_MS = 250;

/** The parent of a process, from /proc on Linux, from `ps` elsewhere. */
function parentOf(pid: number): number | undefined {
  try {
    // /proc/PID/stat: "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    try {
      return Number(execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], { encoding: "utf8" }));
    } catch {
      return undefined;
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether npm started this process for `npx`/`npm exec` (npm sets these for its child). */
export function startedByNpx(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_command === "exec" || env.npm_lifecycle_event === "npx";
}

/**
 * Resolves with what stopped us: the first stop signal, or `npx-gone` when the npx
 * processes above us ended.
 */
export function untilStopSignal(): Promise<NodeJS.Signals | "npx-gone"> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const done = (why: NodeJS.Signals | "npx-gone") => {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      if (timer) clearInterval(timer);
      resolve(why);
    };
    const onSignal = (signal: NodeJS.Signals) => done(signal);
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    if (!startedByNpx()) return;
    const shell = process.ppid;
    const npm = parentOf(shell);
    timer = setInterval(() => {
      if (process.ppid !== shell || (npm !== undefined && npm > 1 && !alive(npm))) {
        done("npx-gone");
      }
    }, WATCH_MS);
    timer.unref();
  });
}
