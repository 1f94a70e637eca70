/**
 * `gatecheck query SQL [--json] [--timeout S]`: rows are written as they are read, so a
 * result of any size streams (a 120,000-row `--json` once crashed building one string).
 * `--timeout` runs the query in a child process of the same CLI and kills it when time is
 * up: SQLite offers no interrupt through better-sqlite3, and a statement looping inside
 * SQLite (a recursive CTE without an end) never returns to JavaScript, so only another
 * process can end it.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { queryJsonChunks, queryTableChunks, readOnlyQuery } from "../../results/read-only-query.ts";
import { openStoreReadonly } from "../../results/store.ts";
import { durationFlag, SECONDS } from "../duration-flag.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { withResultsErrors } from "../results-errors.ts";

export interface QueryFlags {
  db: string;
  json?: boolean;
  timeout?: string;
}

const BIN = fileURLToPath(new URL("../gatecheck.mjs", import.meta.url));
/** Output is handed to stdout in pieces of about this many characters. */
const WRITE_CHARS = 64 * 1024;

export async function queryAction(sql: string, flags: QueryFlags): Promise<void> {
  if (flags.timeout !== undefined) {
    return supervised(sql, flags, durationFlag(flags.timeout, "--timeout", SECONDS));
  }
  await withResultsErrors(async () => {
    const store = openStoreReadonly(flags.db);
    try {
      const result = readOnlyQuery(store.db, sql);
      await writeChunks(flags.json ? queryJsonChunks(result) : queryTableChunks(result));
    } finally {
      store.close();
    }
  }, flags.db);
}

async function writeChunks(chunks: Iterable<string>): Promise<void> {
  let pending = "";
  for (const chunk of chunks) {
    pending += chunk;
    if (pending.length < WRITE_CHARS) continue;
    const drained = process.stdout.write(pending);
    pending = "";
    if (!drained) await once(process.stdout, "drain");
  }
  if (pending) process.stdout.write(pending);
}

/** The same query in a child process, which is killed (and the command exits 2) at the deadline. */
async function supervised(sql: string, flags: QueryFlags, limit: number): Promise<void> {
  const args = [BIN, "query", sql, "--db", flags.db, ...(flags.json ? ["--json"] : [])];
  const child = spawn(process.execPath, args, { stdio: "inherit" });
  const timer = setTimeout(() => child.kill("SIGKILL"), limit * 1000);
  const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  if (signal === "SIGKILL") {
    throw new CliError(
      `query stopped after ${limit} s (--timeout): narrow it (WHERE, LIMIT) or give it longer`,
    );
  }
  if (signal) throw new CliError(`the query's process ended by ${signal}`, EXIT.failed);
  process.exitCode = code ?? EXIT.failed;
}
