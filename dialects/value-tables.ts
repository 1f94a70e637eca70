/**
 * Enumerated attributes read by meaning: a dialect's field-table row may list the values it
 * defines with their canonical meaning (FieldRow.values), so one meaning spelled two ways
 * (`service_tier` Chat `default`, Messages `standard_only`) compares equal, a value a dialect
 * does not define is told apart from one it does, and a meaning a dialect has no value for is
 * known as such.
 */
import { ANTHROPIC_FIELDS } from "./anthropic-messages/fields.ts";
import type { RequestAttribute } from "./attributes.ts";
import type { Dialect } from "./dialect.ts";
import type { FieldTable, ValueMeaning } from "./field-table.ts";
import { GEMINI_FIELDS } from "./gemini/fields.ts";
import { OLLAMA_FIELDS } from "./ollama/fields.ts";
import { CHAT_FIELDS } from "./openai-chat/fields.ts";
import { RESPONSES_FIELDS } from "./openai-responses/fields.ts";

/**
 * The field tables themselves, not the registry: the table walk (field-walk.ts) reads them
 * while the dialect modules that import it are still being built.
 */
const FIELD_TABLES: Record<Dialect, FieldTable> = {
  "openai-chat": CHAT_FIELDS,
  "openai-responses": RESPONSES_FIELDS,
  "anthropic-messages": ANTHROPIC_FIELDS,
  gemini: GEMINI_FIELDS,
  ollama: OLLAMA_FIELDS,
};

/** Canonical meanings of a service tier (the values each dialect maps onto them in its table). */
export const SERVICE_TIER_MEANINGS = ["auto", "standard", "flex", "scale", "priority"] as const;

export type ServiceTierMeaning = (typeof SERVICE_TIER_MEANINGS)[number];

/** The value table of a dialect's own row for `attribute`, if the row has one. */
export function valueTable(
  dialect: Dialect,
  attribute: RequestAttribute,
): Readonly<Record<string, ValueMeaning>> | undefined {
  for (const row of FIELD_TABLES[dialect].rows) {
    if (row.attribute === attribute && row.values && !row.extension && !row.via) return row.values;
  }
  return undefined;
}

/** What a value means in a dialect: its table's meaning, or undefined when not one it defines. */
export function meaningOf(
  dialect: Dialect,
  attribute: RequestAttribute,
  value: unknown,
): string | undefined {
  const table = valueTable(dialect, attribute);
  if (!table || typeof value !== "string" || !Object.hasOwn(table, value)) return undefined;
  return table[value]?.meaning;
}

/** The dialect's values that carry `meaning` (empty when none does: no equivalent there). */
export function valuesMeaning(
  dialect: Dialect,
  attribute: RequestAttribute,
  meaning: string,
): string[] {
  const table = valueTable(dialect, attribute) ?? {};
  return Object.keys(table).filter((value) => table[value]?.meaning === meaning);
}

/**
 * Where the dialect's reference gives its own row's values for `attribute` in both cases, the
 * page that says so (FieldRow.anyCase); undefined where case is part of the value.
 */
export function anyCase(dialect: Dialect, attribute: RequestAttribute): string | undefined {
  for (const row of FIELD_TABLES[dialect].rows) {
    if (row.attribute === attribute && row.anyCase && !row.extension && !row.via) {
      return row.anyCase.see;
    }
  }
  return undefined;
}
