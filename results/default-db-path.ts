/**
 * Where commands look when `--db` is not given, relative to the current directory. A file of
 * its own so the command definitions can name it in their help without loading the store
 * (better-sqlite3, zod and every dialect module): `gatecheck --help` loads none of them.
 */
export const DEFAULT_DB_PATH = "results/gatecheck.db";
