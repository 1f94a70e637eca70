/**
 * A conversation value found where the backend never reads it: under a message key or inside
 * a content part of a type the backend does not define, but another dialect does for the same
 * attribute (thinking text under Ollama's `thinking` key on a Chat assistant message; an
 * Anthropic `document` part left untranslated inside Chat content). The readers keep such a
 * key in the message's extras and such a part whole (`{type: "unknown", raw}`), so the value
 * was sent, in a shape the backend does not define: `mangled (foreign-key)`, never absent.
 * The spellings are a view of the dialects' field tables (`messages[].<key>` rows are message
 * keys, `messages[].content[].<type>` rows are part types).
 */
import type { RequestAttribute } from "../../dialects/attributes.ts";
import type { CanonicalRequest } from "../../dialects/canonical.ts";
import { DIALECTS, type Dialect } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import { dialectModule } from "../../dialects/registry.ts";

const MESSAGE_KEY = /^messages\[\]\.([A-Za-z_]+)$/;
const PART_TYPE = /^messages\[\]\.content\[\]\.([A-Za-z_]+)$/;

interface Spellings {
  keys: Set<string>;
  types: Set<string>;
}

function spellingsOf(dialect: Dialect, attribute?: RequestAttribute): Spellings {
  const keys = new Set<string>();
  const types = new Set<string>();
  for (const row of dialectModule(dialect).fields.rows) {
    if ((attribute !== undefined && row.attribute !== attribute) || row.via !== undefined) continue;
    for (const path of [row.path, ...(row.aliases ?? [])]) {
      const key = MESSAGE_KEY.exec(path)?.[1];
      if (key) keys.add(key);
      const type = PART_TYPE.exec(path)?.[1];
      if (type) types.add(type);
    }
  }
  return { keys, types };
}

const cache = new Map<string, Spellings>();

/** Other dialects' message keys and part types for `attribute` that `backend` does not define. */
function foreignSpellings(attribute: RequestAttribute, backend: Dialect): Spellings {
  const id = `${backend} ${attribute}`;
  let found = cache.get(id);
  if (!found) {
    const own = spellingsOf(backend);
    found = { keys: new Set(), types: new Set() };
    for (const dialect of DIALECTS) {
      if (dialect === backend) continue;
      const theirs = spellingsOf(dialect, attribute);
      for (const key of theirs.keys) if (!own.keys.has(key)) found.keys.add(key);
      for (const type of theirs.types) if (!own.types.has(type)) found.types.add(type);
    }
    cache.set(id, found);
  }
  return found;
}

/** The first value of `attribute` in the forwarded conversation under a foreign spelling. */
export function foreignInMessages(
  attribute: RequestAttribute,
  forwarded: CanonicalRequest,
): { path: string; raw: unknown } | undefined {
  const { keys, types } = foreignSpellings(attribute, forwarded.dialect);
  if (keys.size === 0 && types.size === 0) return undefined;
  for (const [i, message] of forwarded.messages.entries()) {
    for (const key of keys) {
      const raw = message.extras?.[key];
      if (raw !== undefined && raw !== null && raw !== "") {
        return { path: `messages[${i}].${key}`, raw };
      }
    }
    for (const part of message.parts) {
      if (part.type !== "unknown" || !isRecord(part.raw)) continue;
      const type = part.raw.type;
      if (typeof type === "string" && types.has(type)) {
        return { path: `messages[${i}].content[].${type}`, raw: part.raw };
      }
    }
  }
  return undefined;
}
