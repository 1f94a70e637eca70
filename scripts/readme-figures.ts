/**
 * The README's figures (preservation per column, storage, wall time) from one run of a results
 * database, so they are regenerated, never copied by hand:
 *
 *   npx tsx scripts/readme-figures.ts --db DB [--run RUN] [--out DIR] [--write README.md]
 *
 * Prints the figures block (scripts/readme-figures-block.ts); `--write` replaces the block
 * between the README's markers instead. RUN defaults to the database's latest run; DIR (the
 * sweep's `--out`, default the database's folder) holds the run's folder `runs/RUN`, measured
 * when present. Opens the database read-only. Exit 2 on bad input, nothing written.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import type { VerdictKind } from "../probes/verdict.ts";
import { folderBytes } from "./folder-bytes.ts";
import {
  columnFigures,
  type RunFigures,
  renderFiguresBlock,
  replaceFiguresBlock,
} from "./readme-figures-block.ts";

/** A run's figures, read from a database opened read-only. */
export function readRunFigures(dbPath: string, runId?: string, out?: string): RunFigures {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const run = (
      runId === undefined
        ? db.prepare("SELECT * FROM runs ORDER BY started_at DESC LIMIT 1").get()
        : db.prepare("SELECT * FROM runs WHERE id = ?").get(runId)
    ) as { id: string; started_at: string; finished_at: string | null; git_sha: string | null };
    if (!run) throw new Error(runId ? `no run ${runId} in ${dbPath}` : `no run in ${dbPath}`);
    if (!run.finished_at) throw new Error(`run ${run.id} has not finished: no figures from it`);
    const rows = db
      .prepare(
        `SELECT "column" AS col, verdict, count(*) AS n FROM cells WHERE run_id = ? GROUP BY 1, 2`,
      )
      .all(run.id) as { col: string; verdict: VerdictKind; n: number }[];
    const perColumn = new Map<string, Map<VerdictKind, number>>();
    for (const r of rows) {
      const counts = perColumn.get(r.col) ?? new Map<VerdictKind, number>();
      counts.set(r.verdict, r.n);
      perColumn.set(r.col, counts);
    }
    const folder = join(out ?? dirname(dbPath), "runs", run.id);
    return {
      runId: run.id,
      startedAt: run.started_at,
      finishedAt: run.finished_at,
      gitSha: run.git_sha ?? "unknown",
      cells: rows.reduce((sum, r) => sum + r.n, 0),
      databaseBytes: statSync(dbPath).size,
      ...(existsSync(folder) && { runFolderBytes: folderBytes(folder) }),
      columns: [...perColumn].map(([column, counts]) => columnFigures(column, counts)),
    };
  } finally {
    db.close();
  }
}

const COMMAND = "npx tsx scripts/readme-figures.ts --db DB --out DIR --write README.md";

const USAGE = `Usage: npx tsx scripts/readme-figures.ts --db DB [--run RUN] [--out DIR] [--write README.md]

  --db DB        the results database of the run (opened read-only)
  --run RUN      the run (default: the database's latest)
  --out DIR      the sweep's --out, holding runs/RUN (default: the database's folder)
  --write FILE   replace the figures block between FILE's markers instead of printing it
  -h, --help     this text
`;

function main(): void {
  const { values } = parseArgs({
    options: {
      db: { type: "string" },
      run: { type: "string" },
      out: { type: "string" },
      write: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (!values.db) throw new Error("--db DB is required: the results database of the run");
  if (!existsSync(values.db)) throw new Error(`no results database at ${values.db}`);
  const block = renderFiguresBlock(readRunFigures(values.db, values.run, values.out), COMMAND);
  if (!values.write) {
    process.stdout.write(`${block}\n`);
    return;
  }
  const doc = readFileSync(values.write, "utf8");
  writeFileSync(values.write, replaceFiguresBlock(doc, block));
  process.stdout.write(`${values.write}\n`);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`readme-figures: ${(error as Error).message}\n`);
    process.exitCode = 2;
  }
}
