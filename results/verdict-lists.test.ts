import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb } from "./schema.ts";
import { verdictListInterner, verdictsDigest } from "./verdict-lists.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-lists-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const A = '[{"field":"model","verdict":"preserved","reason":"model: \\"a\\" → \\"a\\""}]';
const B = '[{"field":"model","verdict":"dropped","reason":"model: \\"a\\" → absent"}]';

describe("verdict lists", () => {
  it("stores each distinct list once and gives its id again", () => {
    const db = openDb(join(dir, "r.db"), { create: true });
    const lists = verdictListInterner(db);
    const a = lists.idOf(A);
    const b = lists.idOf(B);
    expect(b).not.toBe(a);
    expect(lists.idOf(A)).toBe(a);
    // A second interner (another writer, no memory of the first) finds it in the table.
    expect(verdictListInterner(db).idOf(B)).toBe(b);
    expect(db.prepare("SELECT verdicts FROM verdict_lists ORDER BY id").pluck().all()).toEqual([
      A,
      B,
    ]);
    expect(db.prepare("SELECT digest FROM verdict_lists WHERE id = ?").pluck().get(a)).toBe(
      verdictsDigest(A),
    );
    db.close();
  });

  it("after a rollback and forget, a list is stored again rather than pointed at a lost row", () => {
    const db = openDb(join(dir, "r.db"), { create: true });
    const lists = verdictListInterner(db);
    db.exec("BEGIN");
    lists.idOf(A);
    db.exec("ROLLBACK");
    lists.forget();
    const id = lists.idOf(A);
    expect(db.prepare("SELECT verdicts FROM verdict_lists WHERE id = ?").pluck().get(id)).toBe(A);
    db.close();
  });
});
