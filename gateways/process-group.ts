/**
 * A gateway process in its own process group: started `detached: true` (so the gateway
 * and every child it forks share one group id, the leader's PID), stdout and
 * stderr appended to one log file, the environment given whole (never extended from ours).
 *
 * Stop is SIGTERM to the group, SIGKILL after a grace period, then verified: the group is
 * gone only when no live (non-zombie) member is left (read from `/proc`; `kill(-pid, 0)`
 * elsewhere). A detached group does not die with us, so
 * a reaper kills every live group if this process exits, or gets SIGINT/SIGTERM/SIGHUP
 * that nobody else handles (then re-raises the signal).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExitInfo, StopResult } from "./adapter.ts";

export interface SpawnGroupOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  logPath: string;
}

export interface ManagedProcess {
  pid: number;
  logPath: string;
  exited(): ExitInfo | undefined;
  /** Resolves when the leader exits (never rejects). */
  whenExited: Promise<ExitInfo>;
  stop(graceMs?: number): Promise<StopResult>;
  logTail(lines?: number): string[];
}

export const DEFAULT_GRACE_MS = 3000;
const KILL_WAIT_MS = 5000;

/**
 * Live (non-zombie) members of a process group, from /proc on Linux. A zombie has exited;
 * orphaned ones wait for PID 1 to reap them, which in some containers takes seconds.
 * Returns undefined where /proc is unavailable.
 */
export function groupMembers(pgid: number): number[] | undefined {
  if (process.platform !== "linux") return undefined;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X")
      members.push(Number(entry));
  }
  return members;
}

/** True while any live process of the group exists. */
export function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (members) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True while the process exists and is not a zombie. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return process.platform !== "linux";
  }
}

/**
 * The process's exit, if it comes within `ms`; undefined after that. The timer is cleared
 * either way, so a wait that ended early leaves nothing to hold the event loop open.
 */
export async function exitWithin(
  whenExited: Promise<ExitInfo>,
  ms: number,
): Promise<ExitInfo | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([whenExited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** PF_EXITING in a task's flags (include/linux/sched.h): set as it starts to exit. */
const PF_EXITING = 0x4;

/**
 * Whether the process has died or begun to exit, though its parent may not have reaped it
 * yet: gone, a zombie, or exiting. The kernel closes an exiting process's sockets before it
 * becomes a zombie, and Node emits `exit` only once it has reaped it, so a client can see its
 * connection cut while the process still exists; from `/proc` on Linux (its state, and the
 * flag set before the sockets close). Elsewhere only a process already gone is known, and
 * undefined says the rest cannot be told.
 */
export function pidExiting(pid: number): boolean | undefined {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "EPERM";
  }
  if (process.platform !== "linux") return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return true; // reaped while we looked
  }
  // "pid (comm) state ppid pgrp session tty_nr tpgid flags ...": comm may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[0] === "Z" || fields[0] === "X" || (Number(fields[6]) & PF_EXITING) !== 0;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: already gone, which is what we want.
  }
}

async function waitGone(pgid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (groupAlive(pgid)) {
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

export function readLogTail(logPath: string, lines = 20): string[] {
  try {
    const text = readFileSync(logPath, "utf8");
    return (
      text
        .split(/\r?\n/)
        .filter((l) => l.trim() !== "")
        .slice(-lines)
        // Minified bundles print whole source lines in stack traces: keep each line readable.
        .map((l) => (l.length > 300 ? `${l.slice(0, 300)}...` : l))
    );
  } catch {
    return [];
  }
}

// ---- reaper: live groups die with us -------------------------------------------------

const liveGroups = new Set<number>();
const REAPED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

function killAllNow(): void {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
}

function onSignal(signal: NodeJS.Signals): void {
  // Counted first: ours runs before every other listener (prepended), so a `once`
  // handler of the application is still registered here.
  const othersHandle = process.listenerCount(signal) > 1;
  // Somebody else handles this signal (the sweep's graceful stop): the gateways stay up
  // until it stops them, so the requests in flight finish instead of failing as a crash;
  // the `exit` hook still kills what is left. Otherwise behave as if we had never been
  // here: kill the groups, and the default action ends the process.
  if (othersHandle) return;
  killAllNow();
  liveGroups.clear();
  uninstallReaper();
  process.kill(process.pid, signal);
}

let reaperInstalled = false;

function installReaper(): void {
  if (reaperInstalled) return;
  reaperInstalled = true;
  process.on("exit", killAllNow);
  for (const s of REAPED_SIGNALS) process.prependListener(s, onSignal);
}

function uninstallReaper(): void {
  if (!reaperInstalled) return;
  reaperInstalled = false;
  process.off("exit", killAllNow);
  for (const s of REAPED_SIGNALS) process.off(s, onSignal);
}

function track(pgid: number): void {
  liveGroups.add(pgid);
  installReaper();
  tellWatchdog(`+${pgid}`);
}

function untrack(pgid: number): void {
  if (!liveGroups.delete(pgid)) return;
  tellWatchdog(`-${pgid}`);
  if (liveGroups.size === 0) uninstallReaper();
}

// ---- watchdog: groups die with us even when we die of SIGKILL ------------------------

const WATCHDOG_MJS = fileURLToPath(new URL("./watchdog.mjs", import.meta.url));
let watchdog: ChildProcess | undefined;

/**
 * The reaper above runs only when this process can run code; SIGKILL and the OOM killer
 * leave it no chance. The watchdog (watchdog.mjs), a process in a group of its own, holds
 * the read end of a pipe from us and kills every group we registered when the pipe closes,
 * which the kernel does however we die. Started with the first gateway; on Linux only
 * (it reads /proc), elsewhere the reaper alone stands.
 */
function tellWatchdog(line: string): void {
  if (process.platform !== "linux") return;
  if (!watchdog || watchdog.exitCode !== null || watchdog.signalCode !== null) {
    watchdog = spawn(process.execPath, [WATCHDOG_MJS], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      env: { PATH: process.env.PATH ?? "" },
    });
    watchdog.unref();
    // The pipe must not keep this process alive, nor fail it if the watchdog dies first.
    watchdog.stdin?.on("error", () => {});
    (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
    for (const pgid of liveGroups) if (`+${pgid}` !== line) watchdog.stdin?.write(`+${pgid}\n`);
  }
  watchdog.stdin?.write(`${line}\n`);
}

/** The watchdog's pid, for tests. */
export function watchdogPid(): number | undefined {
  return watchdog?.pid;
}

/** PIDs of groups this process started and has not seen gone (for leak assertions). */
export function trackedGroups(): number[] {
  return [...liveGroups];
}

// ---- spawn ---------------------------------------------------------------------------

export function spawnGroup(options: SpawnGroupOptions): ManagedProcess {
  mkdirSync(dirname(options.logPath), { recursive: true });
  const fd = openSync(options.logPath, "a");
  let child: ChildProcess;
  try {
    // node:child_process rather than execa: execa 9 cannot hand a raw file descriptor to
    // the child (its `{file}` target is a stream piped through this process), and the
    // log must be the gateway's own descriptor so its output never depends on us.
    child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", fd, fd],
      windowsHide: true,
    });
  } finally {
    // The child holds its own copy of the descriptor.
    closeSync(fd);
  }
  let exit: ExitInfo | undefined;
  const whenExited = new Promise<ExitInfo>((resolve) => {
    child.once("exit", (code, signal) => {
      exit = { ...(code !== null && { exitCode: code }), ...(signal && { signal }) };
      resolve(exit);
    });
    child.once("error", (error) => {
      // Spawn failures (ENOENT, EACCES) emit "error" and never "exit".
      if (child.pid === undefined) {
        exit = { exitCode: -1, signal: (error as NodeJS.ErrnoException).code ?? error.message };
        resolve(exit);
      }
    });
  });
  const pid = child.pid;
  if (pid === undefined) {
    return {
      pid: -1,
      logPath: options.logPath,
      exited: () => exit,
      whenExited,
      stop: async () => ({ gone: true, how: "already-exited", exit: await whenExited }),
      logTail: (n) => readLogTail(options.logPath, n),
    };
  }
  const pgid: number = pid;
  track(pgid);
  let stopping: Promise<StopResult> | undefined;

  async function stop(graceMs = DEFAULT_GRACE_MS): Promise<StopResult> {
    // A leader that already died (crash, SIGKILL) leaves its group a moment to be reaped.
    if (exit && (await waitGone(pgid, 500))) {
      untrack(pgid);
      return { gone: true, how: "already-exited", exit };
    }
    if (!groupAlive(pgid)) {
      untrack(pgid);
      return { gone: true, how: "already-exited", exit: await whenExited };
    }
    signalGroup(pgid, "SIGTERM");
    let how: StopResult["how"] = "sigterm";
    if (!(await waitGone(pgid, graceMs))) {
      how = "sigkill";
      signalGroup(pgid, "SIGKILL");
      await waitGone(pgid, KILL_WAIT_MS);
    }
    const gone = !groupAlive(pgid);
    if (gone) untrack(pgid);
    const exitInfo = await exitWithin(whenExited, 1000);
    return exitInfo ? { gone, how, exit: exitInfo } : { gone, how };
  }

  return {
    pid,
    logPath: options.logPath,
    exited: () => exit,
    whenExited,
    stop: (graceMs) => {
      stopping ??= stop(graceMs);
      return stopping;
    },
    logTail: (n) => readLogTail(options.logPath, n),
  };
}
