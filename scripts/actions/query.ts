import {
  formatQueryTable,
  queryResultToJson,
  runReadOnlyQuery,
} from "../../results/read-only-query.ts";
import { openStoreReadonly } from "../../results/store.ts";
import { withResultsErrors } from "../results-errors.ts";

export function queryAction(sql: string, options: { db: string; json?: boolean }): Promise<void> {
  return withResultsErrors(() => {
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
  });
}
