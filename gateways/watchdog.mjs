// The gateways' watchdog: started by the process that launches gateways (the sweep), in a
// process group of its own, reading that process's pipe on stdin. Each line is "+PGID" (a
// gateway group was started) or "-PGID" (it is gone). When the pipe closes (the sweep
// exited, was SIGKILLed, or was killed for running out of memory: the kernel closes the pipe
// in every case), every group still registered gets SIGTERM, then SIGKILL, and the watchdog
// exits. A group is killed only while it is still the one registered: its leader alive with
// the same start time, or gone with the rest of its group still running.
import { readdirSync, readFileSync } from "node:fs";

/** Fields after "(comm)" of /proc/PID/stat, or undefined. */
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

const startTime = (pid) => stat(pid)?.[19];

function groupAlive(pgid) {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const f = stat(entry);
    if (f && Number(f[2]) === pgid && f[0] !== "Z" && f[0] !== "X") return true;
  }
  return false;
}

const groups = new Map();
let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  const lines = buffered.split("\n");
  buffered = lines.pop() ?? "";
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (line[0] === "+") groups.set(pgid, startTime(pgid));
    if (line[0] === "-") groups.delete(pgid);
  }
});

function stillOurs(pgid, started) {
  const now = startTime(pgid);
  if (now !== undefined) return now === started;
  return groupAlive(pgid);
}

function signalAll(signal) {
  for (const [pgid, started] of groups) {
    if (!stillOurs(pgid, started)) {
      groups.delete(pgid);
      continue;
    }
    try {
      process.kill(-pgid, signal);
    } catch {
      groups.delete(pgid);
    }
  }
}

process.stdin.on("end", () => {
  signalAll("SIGTERM");
  setTimeout(() => {
    signalAll("SIGKILL");
    process.exit(0);
  }, 2000);
});
// Signals meant for the sweep's terminal group never reach this group; these are for a
// user who kills the watchdog by hand, who then means it.
