/**
 * Verdict lists are stored once per distinct text (`verdict_lists`, schema version 3): the
 * repeats of a cell, and every rescore of a run by an unchanged lens, give the same list, and
 * writing a 2 KB list again cost three to five times a judgement row without it (measured on
 * the shared 2-core machine: 25–43 µs of CPU a row against 8). A list is found by the
 * sha256 of its text.
 */
import { hash } from "node:crypto";
import { isClientDialect } from "../dialects/dialect.ts";
import { subjectOf } from "../probes/subject.ts";
import type { Verdict } from "../probes/verdict.ts";
import type { Db } from "./schema.ts";

/** The key a verdict list is stored under: sha256 of its JSON text, base64url. */
export function verdictsDigest(verdictsJson: string): string {
  return hash("sha256", verdictsJson, "base64url");
}

/** Make `verdicts_digest(text)` available to SQL on `db` (the migration to version 3 uses it). */
export function registerVerdictsDigest(db: Db): void {
  db.function("verdicts_digest", { deterministic: true }, (text: unknown) =>
    verdictsDigest(String(text)),
  );
}

/** Lists remembered by one interner; past this the memory is dropped and SQLite answers. */
const REMEMBERED = 20_000;

/**
 * A function giving the id of a verdict list, storing the list first when it is new. It
 * remembers the ids it has given, so a run's repeated lists cost a hash and a Map lookup.
 * Call it inside the caller's transaction: a rollback undoes the lists it stored, so the
 * memory is only valid while that transaction commits (`forget` after a rollback).
 */
export function verdictListInterner(db: Db): {
  idOf: (verdictsJson: string) => number;
  forget: () => void;
} {
  const find = db.prepare("SELECT id FROM verdict_lists WHERE digest = ?").pluck();
  const insert = db.prepare("INSERT INTO verdict_lists (digest, verdicts) VALUES (?, ?)");
  let known = new Map<string, number>();
  return {
    idOf(verdictsJson) {
      const digest = verdictsDigest(verdictsJson);
      const remembered = known.get(digest);
      if (remembered !== undefined) return remembered;
      const found = find.get(digest) as number | undefined;
      const id = found ?? Number(insert.run(digest, verdictsJson).lastInsertRowid);
      if (known.size >= REMEMBERED) known = new Map();
      known.set(digest, id);
      return id;
    },
    forget() {
      known = new Map();
    },
  };
}

/**
 * A stored verdict list, parsed. Lists written before verdicts had a subject (schema
 * version 3 and older) get each verdict's subject from its field, in the client dialect of
 * the attempt's route (`client->backend`); anything but an array reads as no verdicts.
 */
export function parseVerdictList(text: string, routeId: string): Verdict[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const client = routeId.slice(0, routeId.indexOf("->"));
  for (const v of parsed as Partial<Verdict>[]) {
    if (v.subject === undefined && typeof v.field === "string" && isClientDialect(client)) {
      v.subject = subjectOf(client, v.field);
    }
  }
  return parsed as Verdict[];
}
