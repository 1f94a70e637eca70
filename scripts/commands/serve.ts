import type { Command } from "commander";
import { DEFAULT_DB_PATH } from "../../results/default-db-path.ts";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerServe: RegisterCommand = (program: Command) => {
  program
    .command("serve")
    .description(
      "Serve the HTML reports of a results database: / (latest run), /runs/:id, /diff/:a/:b, /api/runs",
    )
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--port <port>", "port to bind (0 picks a free one)", "8080")
    .option("--db <path>", "results database", DEFAULT_DB_PATH)
    .action(lazyAction(async () => (await import("../actions/serve.ts")).runServe));
};
