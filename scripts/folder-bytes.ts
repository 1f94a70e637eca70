import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Bytes of the files under a folder (what `prune` frees and the README's storage figure). */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const stats = statSync(join(dir, name), { throwIfNoEntry: false });
    if (stats?.isFile()) total += stats.size;
  }
  return total;
}
