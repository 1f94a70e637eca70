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
import { dieWithParent } from "../parent-watch.ts";
import { withResultsErrors } from "../results-errors.ts";

export interface QueryFlags {
  db: string;
  json?: boolean;
  timeout?: string;
}

const BIN = fileURLToPath(new URL("../gatecheck.mjs", import.meta.url));
/** Output is handed to stdout in pieces of about this many characters. */
const WRITE_CHARS = 64 * 1024;

/** Set in the supervised child's environment: the pid of the `query --timeout` that started it. */
const PARENT_ENV = "GATECHECK_QUERY_PARENT";
/** Stopping the supervisor stops the query: these are forwarded to the child. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export async function queryAction(sql: string, flags: QueryFlags): Promise<void> {
  const parent = Number(process.env[PARENT_ENV]);
  if (Number.isInteger(parent) && parent > 1) dieWithParent(parent);
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
  const child = spawn(process.execPath, args, {
    stdio: "inherit",
    env: { ...process.env, [PARENT_ENV]: String(process.pid) },
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), limit * 1000);
  // A signal to this process alone (a supervisor stopping what it started) stops the query
  // too; were this process killed outright, the child's own watch ends it (parent-watch.ts).
  let stoppedBy: NodeJS.Signals | undefined;
  const forward = (signal: NodeJS.Signals) => {
    stoppedBy = signal;
    child.kill(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, forward);
  const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  for (const s of STOP_SIGNALS) process.off(s, forward);
  if (stoppedBy) throw new CliError(`query stopped by ${stoppedBy}`, EXIT.interrupted);
  if (signal === "SIGKILL") {
    throw new CliError(
      `query stopped after ${limit} s (--timeout): narrow it (WHERE, LIMIT) or give it longer`,
    );
  }
  if (signal) throw new CliError(`the query's process ended by ${signal}`, EXIT.failed);
  process.exitCode = code ?? EXIT.failed;
}
