/**
 * The launch every process-backed adapter shares: spawn in its own group with a scrubbed
 * environment, wait for an HTTP answer within a deadline, and on any failure stop the
 * group before throwing, so a failed launch never leaves a process behind.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { GatewayError, gatewayLabel, type LaunchContext, type RunningGateway } from "./adapter.ts";
import { gatewayEnv } from "./env.ts";
import { waitForHttp } from "./ports.ts";
import { pidExiting, readLogTail, spawnGroup } from "./process-group.ts";
import { runLogged } from "./run-logged.ts";

export const DEFAULT_READY_TIMEOUT_MS = 30_000;

export interface ProcessLaunch {
  command: string;
  args: readonly string[];
  /** Adapter-specific variables (never credentials). */
  env?: Record<string, string>;
  /** Fake provider keys read from the environment (values must contain "gatecheck"). */
  fakeCredentials?: Record<string, string>;
  /** Path polled for readiness; any HTTP status counts. */
  readyPath?: string;
  /**
   * The gateway's own readiness deadline when the caller gives none: a Python proxy that
   * imports a hundred packages takes 8 s on a quiet machine and over 30 s on a busy one.
   */
  readyTimeoutMs?: number;
  cwd?: string;
}

const PREPARE_TIMEOUT_MS = 120_000;

/**
 * A step a gateway needs before it starts (seeding its database), run to completion with
 * the gateway's own scrubbed environment, its output in the gateway's log.
 */
export async function runPrepared(ctx: LaunchContext, how: ProcessLaunch): Promise<void> {
  mkdirSync(ctx.workdir, { recursive: true });
  const logPath = join(ctx.workdir, "gateway.log");
  const code = await runLogged({
    command: how.command,
    args: how.args,
    cwd: how.cwd ?? ctx.workdir,
    env: gatewayEnv({
      workdir: ctx.workdir,
      ...(how.env && { extra: how.env }),
      ...(how.fakeCredentials && { fakeCredentials: how.fakeCredentials }),
    }),
    logPath,
    timeoutMs: PREPARE_TIMEOUT_MS,
    ...(ctx.signal && { signal: ctx.signal }),
  });
  if (code !== 0) {
    throw new GatewayError(
      "launch-failed",
      `${gatewayLabel(ctx.spec)}: preparing the start failed (${how.command} exited ${code})`,
      { logPath, exitCode: code, logTail: readLogTail(logPath, 15) },
    );
  }
}

export async function launchProcess(
  ctx: LaunchContext,
  how: ProcessLaunch,
): Promise<RunningGateway> {
  mkdirSync(ctx.workdir, { recursive: true });
  const label = gatewayLabel(ctx.spec);
  const logPath = join(ctx.workdir, "gateway.log");
  const baseUrl = `http://127.0.0.1:${ctx.port}`;
  const readyUrl = `${baseUrl}${how.readyPath ?? "/"}`;
  if (ctx.signal?.aborted) throw new GatewayError("interrupted", `${label}: launch interrupted`);
  const env = gatewayEnv({
    workdir: ctx.workdir,
    ...(how.env && { extra: how.env }),
    ...(how.fakeCredentials && { fakeCredentials: how.fakeCredentials }),
  });
  const proc = spawnGroup({
    command: how.command,
    args: how.args,
    cwd: how.cwd ?? ctx.workdir,
    env,
    logPath,
  });
  const onAbort = () => void proc.stop(500);
  ctx.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const ready = await waitForHttp({
      url: readyUrl,
      deadlineMs: ctx.readyTimeoutMs ?? how.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
      ...(ctx.signal && { signal: ctx.signal }),
      gaveUp: () => {
        const exit = proc.exited();
        if (!exit) return undefined;
        if (exit.exitCode === -1) return `cannot start ${how.command}: ${exit.signal}`;
        return `exited before ready (${exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`})`;
      },
    });
    if (!ready.ready) {
      const stopped = await proc.stop(500);
      const exit = proc.exited();
      const code =
        ready.reason === "interrupted"
          ? "interrupted"
          : proc.pid < 0
            ? "launch-failed"
            : "not-ready";
      const survived = stopped.gone ? "" : " (and its process group survived SIGKILL)";
      throw new GatewayError(code, `${label}: ${ready.reason}${survived}`, {
        logPath,
        ...(exit?.exitCode !== undefined && { exitCode: exit.exitCode }),
        logTail: proc.logTail(15),
      });
    }
  } finally {
    ctx.signal?.removeEventListener("abort", onAbort);
  }
  return {
    label,
    baseUrl,
    readyUrl,
    pid: proc.pid,
    logPath,
    attached: false,
    exited: proc.exited,
    whenExited: proc.whenExited,
    // Where it cannot be told (no /proc), it may be: the session's wait for the exit is bounded.
    dying: () => pidExiting(proc.pid) ?? true,
    logTail: (n = 20) => proc.logTail(n),
    stop: () => proc.stop(),
  };
}
