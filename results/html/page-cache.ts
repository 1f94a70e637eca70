/**
 * Rendered report pages, kept while the database they came from is unchanged. A page of a
 * 5,068-cell run takes 2–3 s to build and a browser asks for it on every reload; the
 * database changes only when a sweep, rescore or merge writes it.
 */
import { statSync } from "node:fs";

/**
 * The database's state as its files show it: size and modification time (in nanoseconds) of
 * the file and of its write-ahead log. Any write changes the log, a checkpoint the file. An
 * empty log is no log: opening the database (even read-only, as this server does) creates
 * one, and it holds nothing the file does not.
 */
export function databaseState(dbPath: string): string {
  const file = statSync(dbPath, { bigint: true, throwIfNoEntry: false });
  const log = statSync(`${dbPath}-wal`, { bigint: true, throwIfNoEntry: false });
  const stateOf = (stat: typeof file) => (stat ? `${stat.size}:${stat.mtimeNs}` : "-");
  return `${stateOf(file)}|${log && log.size > 0n ? stateOf(log) : "-"}`;
}

/** The newest `limit` pages by key (a request path), each valid for one database state. */
export class PageCache {
  readonly #pages = new Map<string, { state: string; html: string }>();

  constructor(readonly limit = 16) {}

  get(key: string, state: string): string | undefined {
    const page = this.#pages.get(key);
    return page?.state === state ? page.html : undefined;
  }

  set(key: string, state: string, html: string): void {
    this.#pages.delete(key);
    this.#pages.set(key, { state, html });
    if (this.#pages.size > this.limit) {
      const oldest = this.#pages.keys().next().value;
      if (oldest !== undefined) this.#pages.delete(oldest);
    }
  }
}
