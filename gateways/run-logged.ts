/**
 * A build step of an install (npm, pip, go): its output appended to the install log, killed
 * after a deadline or on abort, and its exit code returned (-1 when it could not start).
 * Installers run in the foreground of our process group: an install is ours, not a
 * gateway's, and dies with us.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";

export interface LoggedRun {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  logPath: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export function runLogged(run: LoggedRun): Promise<number> {
  return new Promise((resolve) => {
    const out = openSync(run.logPath, "a");
    const child = spawn(run.command, [...run.args], {
      cwd: run.cwd,
      env: run.env,
      stdio: ["ignore", out, out],
    });
    // The child holds its own copy of the descriptor.
    closeSync(out);
    const timer = setTimeout(() => child.kill("SIGKILL"), run.timeoutMs);
    const onAbort = () => child.kill("SIGTERM");
    run.signal?.addEventListener("abort", onAbort, { once: true });
    const done = (code: number) => {
      clearTimeout(timer);
      run.signal?.removeEventListener("abort", onAbort);
      resolve(code);
    };
    child.once("error", () => done(-1));
    child.once("exit", (code) => done(code ?? -1));
  });
}
