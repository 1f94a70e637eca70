/**
 * `gatecheck serve`: the HTML reports of a results database over HTTP (routes in
 * results/html/report-app.ts). Prints `listening on http://HOST:PORT` as its first stdout
 * line; SIGINT/SIGTERM close the listener and exit 0.
 */
import { existsSync } from "node:fs";
import { serve } from "@hono/node-server";
import { createReportApp } from "../../results/html/report-app.ts";
import { CliError, EXIT } from "../exit-codes.ts";
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
  const app = createReportApp({ dbPath: flags.db });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: flags.host }, () => resolve(s));
    s.once("error", (error: Error) =>
      reject(new CliError(`cannot listen on ${flags.host}:${port}: ${error.message}`)),
    );
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  const host = flags.host.includes(":") ? `[${flags.host}]` : flags.host;
  process.stdout.write(`listening on http://${host}:${bound}\n`);
  await untilStopSignal();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  process.exit(EXIT.ok);
}
