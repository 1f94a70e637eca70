/**
 * The install folder of a Python or Go gateway: built in place (a virtualenv's scripts name
 * their own absolute path, so it cannot be built aside and renamed), guarded by a lock file
 * so two sweeps never build one folder at once, and marked installed only once everything
 * succeeded: a folder without its marker is a failed or interrupted install, removed before
 * the next try. The installer's own output is the folder's `install.log`.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { pidAlive } from "./process-group.ts";

export const INSTALL_MARKER = ".gatecheck-installed.json";

/** What an install wrote when it finished: enough to tell a later run what it would get. */
export interface InstalledMarker {
  label: string;
  /** `pip` or `go`. */
  via: string;
  version: string;
  /** Hash of what pinned the install (the lock file's sha256, the module's go.sum line). */
  pinnedBy: string;
  /** How long the install took. */
  seconds: number;
  /** The interpreter or toolchain that built it (`Python 3.11.7`, `go1.26.8`). */
  toolchain: string;
}

export function readMarker(dir: string): InstalledMarker | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, INSTALL_MARKER), "utf8")) as InstalledMarker;
  } catch {
    return undefined;
  }
}

export function writeMarker(dir: string, marker: InstalledMarker): void {
  writeFileSync(join(dir, INSTALL_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

const LOCK_POLL_MS = 500;

/**
 * Runs `build` holding `<dir>.lock` (exclusive create). A lock whose writer is dead is taken
 * over; a live one is waited for, and `build` then usually finds the install done.
 */
export async function withInstallLock<T>(
  dir: string,
  build: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const lockPath = `${dir}.lock`;
  mkdirSync(join(dir, ".."), { recursive: true });
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSafe(lockPath));
      if (!Number.isInteger(owner) || owner <= 0 || !pidAlive(owner)) {
        rmSync(lockPath, { force: true });
        continue;
      }
      if (signal?.aborted) throw new Error("interrupted while another install held the lock");
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    }
  }
  try {
    return await build();
  } finally {
    rmSync(lockPath, { force: true });
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

/** A fresh folder for an install: whatever a failed earlier try left is removed first. */
export function freshInstallDir(dir: string): void {
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}

/**
 * A failed or interrupted install: its log moved beside the cache
 * (`<label>.install.log`, kept for the report), the half-built folder removed.
 */
export function abandonInstall(dir: string, logPath: string): string {
  const kept = `${dir}.install.log`;
  try {
    renameSync(logPath, kept);
  } catch {
    // No log was written: nothing to keep.
  }
  rmSync(dir, { recursive: true, force: true });
  return kept;
}
