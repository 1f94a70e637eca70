/**
 * Paths a command will write, checked before it does any work: a wrong one ends the command
 * with exit 2 and a message saying what to pass instead, and nothing is written (no folder
 * made, no database created). The write itself can still fail (a full disk); these are the
 * mistakes a command line makes.
 */
import { accessSync, constants, lstatSync, type Stats, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError } from "./exit-codes.ts";

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path); // follows symlinks: a link is judged by what it points at
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined; // absent: its folder is checked
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** What a path is, in words (`stats` of what it points at). */
function kindOf(path: string, stats: Stats): string {
  let kind = "a file";
  if (stats.isFIFO()) kind = "a FIFO (named pipe)";
  else if (stats.isSocket()) kind = "a socket";
  else if (stats.isCharacterDevice() || stats.isBlockDevice()) kind = "a device";
  else if (stats.isDirectory()) kind = "a folder";
  return lstatSync(path).isSymbolicLink() ? `a symbolic link to ${kind}` : kind;
}

/** Whether this process may write the file, or create files in the folder. */
function writable(path: string, folder = true): boolean {
  try {
    accessSync(path, folder ? constants.W_OK | constants.X_OK : constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The nearest folder that exists at or above `from`, which must be writable to make `path`. */
function requireCreatable(path: string, from: string, flag: string, what: string): void {
  let dir = resolve(from);
  for (;;) {
    const stats = statOf(dir);
    if (stats) {
      if (!stats.isDirectory()) {
        throw new CliError(
          `${flag} ${path}: ${dir} is ${kindOf(dir, stats)}, so ${what} cannot be made there`,
        );
      }
      if (!writable(dir)) {
        throw new CliError(
          `${flag} ${path}: ${dir} is read-only, so ${what} cannot be made there; pass a writable path`,
        );
      }
      return;
    }
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

/** A file the command creates or rewrites in place (a database): absent or a writable regular file in a writable folder. */
export function requireWritableFile(path: string, flag: string): void {
  const stats = statOf(path);
  if (!stats) {
    requireCreatable(path, dirname(resolve(path)), flag, "the file");
    return;
  }
  if (!stats.isFile()) {
    throw new CliError(`${flag} ${path} is ${kindOf(path, stats)}; ${flag} takes a file path`);
  }
  // SQLite writes its journal beside the database, and outputs are renamed into place.
  const folder = dirname(resolve(path));
  if (!writable(path, false) || !writable(folder)) {
    throw new CliError(`${flag} ${path} is read-only (or its folder is); pass a writable path`);
  }
}

/** A folder the command writes into: absent (it is made) or a writable folder, a link to one included. */
export function requireWritableFolder(path: string, flag: string): void {
  const stats = statOf(path);
  if (!stats) {
    requireCreatable(path, path, flag, "the folder");
    return;
  }
  if (!stats.isDirectory()) {
    throw new CliError(`${flag} ${path} is ${kindOf(path, stats)}; ${flag} takes a folder`);
  }
  if (!writable(path)) throw new CliError(`${flag} ${path} is read-only; pass a writable folder`);
}

/** A file the command only reads: it must exist and be a regular file. */
export function requireReadableFile(path: string, flag: string): void {
  const stats = statOf(path);
  if (!stats) throw new CliError(`${flag} ${path}: no such file`);
  if (!stats.isFile())
    throw new CliError(`${flag} ${path} is ${kindOf(path, stats)}; ${flag} takes a file`);
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw new CliError(`${flag} ${path} cannot be read (permissions)`);
  }
}
