import type { Command } from "commander";
import { CLIENT_DIALECTS } from "../../dialects/dialect.ts";
import { DEFAULT_DB_PATH } from "../../results/default-db-path.ts";
import { RUN_ID_RULE } from "../../results/run-id.ts";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerSweep: RegisterCommand = (program: Command) => {
  program
    .command("sweep")
    .description(
      "Run every gateway x route x probe x mode through the mock, judge, store in SQLite, write the matrix",
    )
    .option(
      "--gateways <list>",
      "comma-separated columns: NAME[@VERSION][+VARIANT] or a gateway JSON file (default: every runnable gateway, its variants, and direct)",
    )
    .option(
      "--attach <list>",
      "NAME=URL pairs, comma-separated: gateways you run yourself (e.g. axonhub=http://127.0.0.1:8090), attached instead of launched",
    )
    .option(
      "--attach-mock-port <port>",
      "the mock an attached gateway must point at listens here (the next attached one on the next port)",
      String(9990),
    )
    .option("--probes <glob>", "probe ids to run, * and ? globs, comma-separated (default: all)")
    .option("--probes-dir <dir>", "also load user probes from the *.json files in this folder")
    .option(
      "--dialects <list>",
      `client dialects to probe: ${CLIENT_DIALECTS.join(", ")} (default: all)`,
    )
    .option("--modes <list>", "stream, non-stream or both", "non-stream,stream")
    .option("--repeats <n>", "attempts per non-clean cell (the k of N count)", "5")
    .option("--minutes <m>", "time budget; cells not reached are not-run: budget", "60")
    .option(
      "--concurrency <k>",
      "requests in flight per gateway (cells waiting on their judgement hold none)",
      "4",
    )
    .option("--timeout-ms <ms>", "the client's deadline for one attempt", "20000")
    .option(
      "--shard <i/n>",
      "run shard i of n (1-based); merge the shards' databases with `gatecheck merge`",
    )
    .option(
      "--resume <run-id>",
      "continue an interrupted run: cells already stored are not run again",
    )
    .option(
      "--run-id <id>",
      `start the run under this id (${RUN_ID_RULE}: it names the run's folder <out>/runs/<id>); shards of one sweep share one so \`merge\` joins them`,
    )
    .option("--db <file>", "results database", DEFAULT_DB_PATH)
    .option(
      "--out <dir>",
      "where MATRIX.md, summary.json, report.html and run folders go (default: the database's folder)",
    )
    .option("--json", "print the run's result as JSON on stdout (no progress display)")
    .action(lazyAction(async () => (await import("../actions/sweep.ts")).sweepAction));
};
