/**
 * Hash locks of the Python gateways: one committed requirements file per `name@version`
 * (`gateways/locks/litellm@1.96.2.txt`), every package pinned to an exact version with the
 * sha256 of every file PyPI serves for it, so `pip install --require-hashes` installs exactly
 * what was reviewed or nothing. A version without a committed lock is not installed: the
 * reference sweep's lesson is that some LiteLLM releases on PyPI were compromised, so
 * nothing here floats.
 *
 * The lock's header records what it was resolved from; `python-lock.test.ts` checks it
 * against the pins below, and `gateways/write-lock.ts` writes it (docs/gateways.md).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./cache.ts";

export const LOCK_DIR = join(REPO_ROOT, "gateways", "locks");

/** A constraint added to a resolution, and why a plain install does not work without it. */
export interface LockConstraint {
  spec: string;
  why: string;
  see: string;
}

export interface PythonPin {
  /** The requirement that pins the gateway: `litellm[proxy]==1.96.2`. */
  requirement: string;
  constraints?: readonly LockConstraint[];
  /**
   * Dependencies are resolved as PyPI served them at this instant (uv's `--exclude-newer`):
   * the week of the gateway's release, what its users installed then, not whatever a
   * dependency published since (a later FastAPI broke LiteLLM 1.96.2's import).
   */
  resolvedAsOf: string;
  /** Lowest Python the lock was resolved for (`3.11`). */
  python: string;
}

/** A Python gateway's distribution, the module that tells its version, and its pins. */
export interface PythonGateway {
  name: string;
  /** Distribution whose installed version must equal the column's (`litellm`). */
  distribution: string;
  pins: Readonly<Record<string, PythonPin>>;
  /** Where its locks are (default `gateways/locks`; tests use their own). */
  lockDir?: string;
}

export function lockPath(name: string, version: string, dir = LOCK_DIR): string {
  return join(dir, `${name}@${version}.txt`);
}

const INPUT = "# input: ";
const AS_OF = "# resolved as of ";

export interface LockHeader {
  inputs: string[];
  resolvedAsOf?: string;
  python?: string;
}

/** What a lock says it was resolved from (its `# input:` and `# resolved as of` lines). */
export function readLockHeader(text: string): LockHeader {
  const header: LockHeader = { inputs: [] };
  for (const line of text.split("\n")) {
    if (!line.startsWith("#")) break;
    if (line.startsWith(INPUT)) header.inputs.push(line.slice(INPUT.length).trim());
    if (line.startsWith(AS_OF)) {
      const match = /^(\S+) for Python >=([0-9.]+)/.exec(line.slice(AS_OF.length));
      if (match) {
        header.resolvedAsOf = match[1];
        header.python = match[2];
      }
    }
  }
  return header;
}

export function lockHeaderLines(label: string, pin: PythonPin, tool: string): string[] {
  return [
    `# gatecheck hash lock for ${label}: written by gateways/write-lock.ts, do not edit`,
    `${INPUT}${pin.requirement}`,
    ...(pin.constraints ?? []).map((c) => `${INPUT}${c.spec}`),
    `${AS_OF}${pin.resolvedAsOf} for Python >=${pin.python}, every platform (${tool})`,
  ];
}

/** Packages a lock pins (`name==version` lines). */
export function lockedPackages(text: string): string[] {
  return [...text.matchAll(/^([A-Za-z0-9_.-]+)==(\S+)/gm)].map((m) => `${m[1]}==${m[2]}`);
}

export interface LockFile {
  path: string;
  text: string;
  sha256: string;
  header: LockHeader;
  packages: string[];
}

export function readLock(name: string, version: string, dir = LOCK_DIR): LockFile | undefined {
  const path = lockPath(name, version, dir);
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, "utf8");
  return {
    path,
    text,
    sha256: createHash("sha256").update(text).digest("hex"),
    header: readLockHeader(text),
    packages: lockedPackages(text),
  };
}
