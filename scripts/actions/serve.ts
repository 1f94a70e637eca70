/**
 * `gatecheck serve`: the HTML reports of a results database over HTTP (routes in
 * results/html/report-app.ts). Prints `listening on http://HOST:PORT` as its first stdout
 * line; SIGINT/SIGTERM close the listener and exit 0.
 */
import { existsSync } from "node:fs";
import { serve } from "@hono/node-server";
import { exposedWarning, hostProblem } from "../../mock-upstream/host-guard.ts";
import { createReportApp } from "../../results/html/report-app.ts";
import { openStoreReadonly } from "../../results/store.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { withResultsErrors } from "../results-errors.ts";
import { untilStopSignal } from "../stop-signal.ts";

export interface ServeFlags {
  host: string;
  port: string;
  db: string;
}

export async function runServe(flags: ServeFlags): Promise<void> {
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliError(
      `--port must be an integer from 0 to 65535, got ${JSON.stringify(flags.port)}`,
    );
  }
  if (!existsSync(flags.db)) {
    throw new CliError(`no results database at ${flags.db} (run a sweep first, or pass --db)`);
  }
  // A database no page could read (a read-only folder, not a database) is said now, not as
  // a 503 on every page.
  await withResultsErrors(() => openStoreReadonly(flags.db).close(), flags.db);
  const app = createReportApp({ dbPath: flags.db });
  // Pages read the whole database: a web page reaching us through a rebound name must not.
  const fetch = (request: Request) => {
    const problem = hostProblem(flags.host, request.headers.get("host") ?? undefined);
    return problem ? Response.json({ error: problem }, { status: 403 }) : app.fetch(request);
  };
  const warning = exposedWarning("serve", flags.host);
  if (warning) process.stderr.write(`${warning}\n`);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch, port, hostname: flags.host }, () => resolve(s));
    s.once("error", (error: Error) =>
      reject(new CliError(`cannot listen on ${flags.host}:${port}: ${error.message}`)),
    );
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  const host = flags.host.includes(":") ? `[${flags.host}]` : flags.host;
  // Listening for the stop signals before saying so: a supervisor may signal on that line.
  const stopped = untilStopSignal();
  process.stdout.write(`listening on http://${host}:${bound}\n`);
  await stopped;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  process.exit(EXIT.ok);
}
