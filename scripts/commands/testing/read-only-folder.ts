/**
 * A folder nobody can write, the tests' own process included, wherever the checkout lives
 * (tests only). Not root: `chmod 0555`. Root, whom permissions do not stop: a read-only bind
 * mount of the folder onto itself (root with CAP_SYS_ADMIN, as CI runs), else the immutable
 * attribute (`chattr +i`, CAP_LINUX_IMMUTABLE). Running the CLI as `nobody` instead needed the
 * checkout to be enterable by `nobody`, which a clone in a 0700 home or temporary folder is not.
 * Neither way open: an error saying what the test needs, never a skip standing in for a pass.
 * Returns the undo; the folder's files are left as they are.
 */
import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants } from "node:fs";

function run(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: "ignore" }).status === 0;
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export function makeReadOnly(folder: string): () => void {
  if (process.getuid?.() !== 0) {
    chmodSync(folder, 0o555);
    return () => chmodSync(folder, 0o755);
  }
  if (run("mount", ["--bind", folder, folder])) {
    if (run("mount", ["-o", "remount,bind,ro", folder]) && !writable(folder)) {
      return () => {
        // Lazily: a file still open under it (a failed test's leaked handle) must not keep it.
        run("umount", ["-l", folder]);
      };
    }
    run("umount", [folder]);
  }
  if (run("chattr", ["+i", folder]) && !writable(folder)) {
    return () => {
      run("chattr", ["-i", folder]);
    };
  }
  throw new Error(
    `cannot make ${folder} read-only for root: this test needs mount (CAP_SYS_ADMIN) or chattr +i (CAP_LINUX_IMMUTABLE), or to run as a user other than root`,
  );
}
