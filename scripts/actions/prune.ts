/**
 * `gatecheck prune --keep N`: a nightly job adds a run a night (a default sweep's size is in the
 * README's figures block, `scripts/readme-figures.ts`); this keeps the newest N runs and deletes the rest,
 * their cells, attempts and gateway rows, the bytes no kept run refers to (a rescore shares
 * its source's), and their folders under `<out>/runs/`. The database is vacuumed after, so
 * the file shrinks.
 */
import { existsSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { insideRoot } from "../../results/inside-root.ts";
import { openStore } from "../../results/store.ts";
import { CliError } from "../exit-codes.ts";
import { folderBytes } from "../folder-bytes.ts";
import { requireWritableFile } from "../paths.ts";
import { withResultsErrors } from "../results-errors.ts";

export interface PruneFlags {
  keep: string;
  db: string;
  out?: string;
  dryRun?: boolean;
  json?: boolean;
}

export async function pruneAction(flags: PruneFlags): Promise<void> {
  const keep = Number(flags.keep);
  if (!Number.isInteger(keep) || keep < 1) {
    throw new CliError(`--keep takes a whole number >= 1, got "${flags.keep}"`);
  }
  if (!existsSync(flags.db)) throw new CliError(`no results database at ${flags.db}`);
  requireWritableFile(flags.db, "--db");
  const runsDir = join(flags.out ?? dirname(flags.db), "runs");
  await withResultsErrors(() => {
    const store = openStore(flags.db, { create: false });
    try {
      const runs = store.listRuns();
      const kept = runs.slice(0, keep).map((r) => r.id);
      const gone = runs.slice(keep).map((r) => r.id);
      // Every folder is checked before anything is deleted: one outside runs/ stops the prune.
      const folders = gone.map((id) => insideRoot(runsDir, id)).filter((dir) => existsSync(dir));
      const folderSize = folders.reduce((sum, dir) => sum + folderBytes(dir), 0);
      const before = statSync(flags.db).size;
      const deleted = flags.dryRun ? undefined : store.deleteRuns(gone);
      if (deleted && gone.length > 0) {
        store.db.exec("VACUUM");
        for (const dir of folders) rmSync(dir, { recursive: true, force: true });
      }
      const summary = {
        dryRun: flags.dryRun === true,
        kept,
        deleted: gone,
        ...(deleted ? { cells: deleted.cells, attempts: deleted.attempts } : {}),
        runFolders: folders,
        runFolderBytes: folderSize,
        databaseBytes: { before, after: statSync(flags.db).size },
      };
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        return;
      }
      const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
      const verb = flags.dryRun ? "would delete" : "deleted";
      process.stdout.write(
        gone.length === 0
          ? `nothing to prune: ${runs.length} run(s), keeping ${keep}\n`
          : `${verb} ${gone.length} run(s): ${gone.join(", ")}\n` +
              (deleted ? `  ${deleted.cells} cells, ${deleted.attempts} attempts\n` : "") +
              `  ${folders.length} run folder(s) under ${runsDir}, ${mb(folderSize)}\n` +
              `  database ${mb(before)}${flags.dryRun ? "" : ` -> ${mb(summary.databaseBytes.after)}`}\n` +
              `kept ${kept.length}: ${kept.join(", ")}\n`,
      );
    } finally {
      store.close();
    }
  });
}
