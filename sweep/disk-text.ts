/**
 * Test support for the no-secret-on-disk tests: every file under a folder, read with what
 * hides inside it (base64 runs decoded, gzip within them unpacked), and a database cell by
 * cell. Imported by tests only.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";

export function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Text and what hides inside it: base64 runs decoded, gzip within them unpacked. */
export function readable(text: string): string {
  const found = [text];
  for (const run of text.match(/[A-Za-z0-9+/]{24,}={0,2}/g) ?? []) {
    const bytes = Buffer.from(run, "base64");
    found.push(bytes.toString("latin1"));
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      try {
        found.push(gunzipSync(bytes).toString("utf8"));
      } catch {
        // A run that only starts like gzip.
      }
    }
  }
  return found.join("\n");
}

/** Every cell of every table, a row a line (blobs as Latin-1 text). */
export function databaseText(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    return tables
      .map(({ name }) =>
        db
          .prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`)
          .raw()
          .all()
          .map((row) =>
            (row as unknown[])
              .map((cell) => (Buffer.isBuffer(cell) ? cell.toString("latin1") : String(cell)))
              .join("\t"),
          )
          .join("\n"),
      )
      .join("\n");
  } finally {
    db.close();
  }
}
