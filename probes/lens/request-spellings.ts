/**
 * The spelling tables, one per client dialect: each canonical request attribute and its
 * dotted spelling in that dialect, with the page that documents it. A view of the dialects'
 * field tables (`dialects/<d>/fields.ts`): a vendor extension a reader accepts is not the
 * dialect's spelling. The conventions are in field-names.ts, where callers look them up.
 */
import type { RequestAttribute } from "../../dialects/attributes.ts";
import { CLIENT_DIALECTS, type ClientDialect } from "../../dialects/dialect.ts";
import { type FieldTable, isSpelling } from "../../dialects/field-table.ts";
import { DIALECT_MODULES } from "../../dialects/registry.ts";
import type { FieldSpelling } from "./field-names.ts";

export type SpellingTable = Partial<Record<RequestAttribute, FieldSpelling>>;

function spellingsOf(fields: FieldTable): SpellingTable {
  const table: SpellingTable = {};
  for (const row of fields.rows) {
    if (!isSpelling(row)) continue;
    table[row.attribute] = row.aliases
      ? { field: row.path, aliases: row.aliases, see: row.see }
      : { field: row.path, see: row.see };
  }
  return table;
}

/** Per client dialect: canonical request attribute → its spelling. */
export const REQUEST_FIELD_NAMES = Object.fromEntries(
  CLIENT_DIALECTS.map((d) => [d, spellingsOf(DIALECT_MODULES[d].fields)]),
) as Record<ClientDialect, SpellingTable>;
