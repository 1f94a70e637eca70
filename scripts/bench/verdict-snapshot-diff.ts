/**
 * Which verdicts two snapshots of verdict-snapshot.ts disagree on, grouped so a rule's effect
 * reads as one line: every changed verdict of a stored attempt or a fixture, counted by subject
 * and by what it was and became (`tools: absent → invented (empty-added)`), then every changed
 * cell counted by its verdict before and after, with the columns and probes it touched.
 * Its flags: `--help`.
 *
 * Verdicts of one attempt are matched by direction, subject and field; a verdict only one side
 * gives is `absent` on the other. Lines present in one snapshot only (another run, a fixture
 * added) are counted apart, never matched.
 */
import { readFileSync } from "node:fs";
import { benchArgs, usageError } from "./bench-args.ts";
import { readSnapshotLine } from "./verdict-snapshot-lines.ts";

const USAGE = `
Usage: npx tsx scripts/bench/verdict-snapshot-diff.ts BEFORE.txt AFTER.txt [--json]

  BEFORE.txt, AFTER.txt   two snapshots written by verdict-snapshot.ts
  --json                  the differences as JSON
  -h, --help              this text
`;

const { values, positionals } = benchArgs(
  USAGE,
  { json: { type: "boolean", default: false } },
  true,
);
if (positionals.length !== 2) usageError(USAGE, "expected two snapshot files");
const [beforePath, afterPath] = positionals as [string, string];

interface Snapshot {
  /** `attempt ...` and `fixture ...` lines: key → the verdict list's JSON text. */
  lists: Map<string, string>;
  /** `cell ...` lines: key → verdict. */
  cells: Map<string, string>;
}

function read(path: string): Snapshot {
  const lists = new Map<string, string>();
  const cells = new Map<string, string>();
  for (const text of readFileSync(path, "utf8").split("\n")) {
    const line = readSnapshotLine(text);
    if (line?.kind === "cell") cells.set(line.key, line.payload.split(" ")[0] ?? "");
    else if (line) lists.set(line.key, line.payload);
  }
  return { lists, cells };
}

interface V {
  direction?: string;
  subject?: string;
  field?: string;
  verdict: string;
  cause?: string;
}

function verdictsOf(text: string): V[] {
  if (!text.startsWith("[")) return [{ verdict: text.slice(0, 60) }];
  return JSON.parse(text) as V[];
}

function shown(v: V | undefined): string {
  if (!v) return "absent";
  return v.cause ? `${v.verdict} (${v.cause})` : v.verdict;
}

const before = read(beforePath);
const after = read(afterPath);

const groups = new Map<string, number>();
let listsCompared = 0;
let listsChanged = 0;
let unmatched = 0;
for (const [key, text] of after.lists) {
  const old = before.lists.get(key);
  if (old === undefined) {
    unmatched += 1;
    continue;
  }
  listsCompared += 1;
  if (old === text) continue;
  listsChanged += 1;
  const index = (list: V[]) => {
    const out = new Map<string, V[]>();
    for (const v of list) {
      const k = `${v.direction ?? ""}|${v.subject ?? ""}|${v.field ?? ""}`;
      const at = out.get(k) ?? [];
      at.push(v);
      out.set(k, at);
    }
    return out;
  };
  const was = index(verdictsOf(old));
  const now = index(verdictsOf(text));
  for (const k of new Set([...was.keys(), ...now.keys()])) {
    const a = was.get(k) ?? [];
    const b = now.get(k) ?? [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const from = shown(a[i]);
      const to = shown(b[i]);
      if (from === to) continue;
      const subject = (a[i] ?? b[i])?.subject ?? "?";
      const g = `${subject}: ${from} → ${to}`;
      groups.set(g, (groups.get(g) ?? 0) + 1);
    }
  }
}

const cellGroups = new Map<string, { n: number; columns: Set<string>; probes: Set<string> }>();
let cellsCompared = 0;
for (const [key, verdict] of after.cells) {
  const old = before.cells.get(key);
  if (old === undefined) continue;
  cellsCompared += 1;
  if (old === verdict) continue;
  const [, , column = "", route = "", probe = ""] = key.split(" ");
  const g = `${old} → ${verdict}`;
  const at = cellGroups.get(g) ?? { n: 0, columns: new Set(), probes: new Set() };
  at.n += 1;
  at.columns.add(`${column} ${route}`);
  at.probes.add(probe);
  cellGroups.set(g, at);
}

const verdictRows = [...groups].sort((x, y) => y[1] - x[1]);
const cellRows = [...cellGroups].sort((x, y) => y[1].n - x[1].n);
if (values.json) {
  console.log(
    JSON.stringify({
      listsCompared,
      listsChanged,
      unmatched,
      verdicts: verdictRows.map(([change, n]) => ({ change, n })),
      cellsCompared,
      cells: cellRows.map(([change, g]) => ({
        change,
        n: g.n,
        columns: [...g.columns].sort(),
        probes: [...g.probes].sort(),
      })),
    }),
  );
} else {
  console.log(
    `${listsChanged} of ${listsCompared} verdict lists changed (${unmatched} in AFTER only)`,
  );
  for (const [change, n] of verdictRows) console.log(`${String(n).padStart(7)}  ${change}`);
  const changed = cellRows.reduce((sum, [, g]) => sum + g.n, 0);
  console.log(`${changed} of ${cellsCompared} cells changed`);
  for (const [change, g] of cellRows) {
    console.log(
      `${String(g.n).padStart(7)}  ${change}  probes: ${[...g.probes].sort().join(", ")}`,
    );
    console.log(`         columns: ${[...g.columns].sort().join(", ")}`);
  }
}
