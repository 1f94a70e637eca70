import type { Command } from "commander";
import {
  formatQueryTable,
  queryResultToJson,
  runReadOnlyQuery,
} from "../../results/read-only-query.ts";
import { DEFAULT_DB_PATH, openStoreReadonly } from "../../results/store.ts";
import { withResultsErrors } from "../results-errors.ts";
import type { RegisterCommand } from "./index.ts";

export const registerQuery: RegisterCommand = (program: Command) => {
  program
    .command("query")
    .description("Run one read-only SQL statement against the results database")
    .argument("<sql>", 'a SELECT statement, e.g. "SELECT * FROM runs"')
    .option("--db <path>", "results database", DEFAULT_DB_PATH)
    .option("--json", "print rows as a JSON array of objects")
    .action((sql: string, options: { db: string; json?: boolean }) =>
      withResultsErrors(() => {
        const store = openStoreReadonly(options.db);
        try {
          const result = runReadOnlyQuery(store.db, sql);
          process.stdout.write(
            options.json
              ? `${JSON.stringify(queryResultToJson(result), null, 2)}\n`
              : formatQueryTable(result),
          );
        } finally {
          store.close();
        }
      }),
    );
};
