/**
 * A snapshot of every verdict the lens gives on the bytes we have, to prove a speed-up
 * changed no verdict: run it before and after a change and compare the two files
 * (`cmp before.txt after.txt`). It judges
 *
 * - every exchange file under probes/lens/fixtures (the `check` path:
 *   `judgeExchange(parseExchangeText(...))`), and
 * - every stored attempt of every finished run of a results database (the `rescore` path:
 *   the database is copied to a temp folder and each run rescored there, so the source is
 *   never written), one line per attempt in cell-key order, then one line per cell.
 *
 * Its flags: `--help`. `--run` rescores that one run whatever its status (an interrupted sweep's finished cells are
 * worth comparing too); without it, every run whose status is `done`.
 *
 * `--without` leaves the named keys out of every verdict written, so a snapshot taken by code
 * that adds keys to verdicts compares with one taken before it (the keys added, nothing else).
 */
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseExchangeText } from "../../probes/exchange.ts";
import { judgeExchange } from "../../probes/lens/judge-exchange.ts";
import { openStore } from "../../results/store.ts";
import { rescoreRun } from "../../sweep/rescore.ts";
import { benchArgs, usageError } from "./bench-args.ts";
import { snapshotLine } from "./verdict-snapshot-lines.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const FIXTURES = join(ROOT, "probes", "lens", "fixtures");

const USAGE = `
Usage: npx tsx scripts/bench/verdict-snapshot.ts --out FILE [options]

  --out FILE       where the snapshot is written (required)
  --db FILE        the results database, copied before rescoring (default results/gatecheck.db)
  --without KEYS   leave these keys out of every verdict, e.g. subject,sent,got
  --run RUN_ID     rescore that one run whatever its status (default: every finished run)
  -h, --help       this text
`;

const { values } = benchArgs(USAGE, {
  db: { type: "string", default: join(ROOT, "results", "gatecheck.db") },
  out: { type: "string" },
  without: { type: "string", default: "" },
  run: { type: "string" },
});
const WITHOUT = new Set(values.without.split(",").filter(Boolean));

/** The verdict list's JSON text with the `--without` keys left out of every verdict. */
function listText(verdicts: unknown): string {
  if (WITHOUT.size === 0) return JSON.stringify(verdicts);
  return JSON.stringify(verdicts, (key, value) => (WITHOUT.has(key) ? undefined : value));
}
if (!values.out) usageError(USAGE, "--out FILE is required: where the snapshot is written");

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return jsonFiles(path);
      return name.endsWith(".json") ? [path] : [];
    });
}

const lines: string[] = [];
let fixtures = 0;
for (const path of jsonFiles(FIXTURES)) {
  const text = readFileSync(path, "utf8");
  let verdicts: string;
  try {
    verdicts = listText(judgeExchange(parseExchangeText(text, relative(ROOT, path))));
  } catch (error) {
    verdicts = `error ${(error as Error).message}`;
  }
  lines.push(snapshotLine("fixture", [relative(ROOT, path)], verdicts));
  fixtures += 1;
}

let attempts = 0;
if (existsSync(values.db)) {
  const dir = mkdtempSync(join(tmpdir(), "gatecheck-snapshot-"));
  try {
    const copy = join(dir, "copy.db");
    copyFileSync(values.db, copy);
    for (const suffix of ["-wal", "-shm"]) {
      if (existsSync(values.db + suffix)) copyFileSync(values.db + suffix, copy + suffix);
    }
    const store = openStore(copy);
    const runs = values.run
      ? [values.run]
      : (store.db
          .prepare("SELECT id FROM runs WHERE status = 'done' ORDER BY id")
          .pluck()
          .all() as string[]);
    for (const run of runs) {
      const rescored = rescoreRun(store, run).runId;
      const rows = store.db
        .prepare(
          `SELECT "column", route_id, probe_id, mode, phase, attempt_no, verdicts FROM attempts
           WHERE run_id = ? ORDER BY "column", route_id, probe_id, mode, phase, attempt_no`,
        )
        .raw(true)
        .all(rescored) as unknown[][];
      for (const row of rows) {
        const list = row.pop() as string;
        lines.push(snapshotLine("attempt", [run, ...row], listText(JSON.parse(list))));
      }
      attempts += rows.length;
      const cells = store.db
        .prepare(
          `SELECT "column", route_id, probe_id, mode, verdict, reason, runs, determinism,
                  control_verdict FROM cells
           WHERE run_id = ? ORDER BY "column", route_id, probe_id, mode`,
        )
        .raw(true)
        .all(rescored) as unknown[][];
      for (const row of cells) {
        lines.push(snapshotLine("cell", [run, ...row.slice(0, 4)], row.slice(4).join(" ")));
      }
    }
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

writeFileSync(values.out, `${lines.join("\n")}\n`);
console.log(`${fixtures} fixtures, ${attempts} stored attempts judged; written to ${values.out}`);
