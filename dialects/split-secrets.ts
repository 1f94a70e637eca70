/**
 * Secrets cut across a stream's events. A streamed reply sends its text and a tool call's
 * arguments in fragments, one event each (Chat's `delta.content` and `function.arguments`,
 * Anthropic's `text_delta` and `partial_json`, Responses' `.delta` events, Gemini's and
 * Ollama's text parts): a key, or a credential-named key and its value, can be cut between two
 * events, and then no single line holds it for the line-by-line redaction to find.
 *
 * So the string values of a stream's JSON lines are joined per channel, the place the value
 * stands in its event (array positions replaced by the stream's own `index`, `output_index`
 * and `content_index` where an element carries them, since parallel tool calls share an array
 * position and differ by `index`), and each joined text is searched like a body: key shapes,
 * the secrets given, and the string value of a credential-named key. Where what was found runs
 * across fragments, each fragment holding part of it has that part replaced, the first by the
 * secret's tag and the rest by nothing, so that the joined text reads as the tag.
 */
import { environmentSecretsNow, MIN_TEXT_SECRET, redactionTag } from "./credentials.ts";
import { stringifyDeep } from "./deep-json.ts";
import { hasKeyPrefix } from "./key-shape-scan-fast.ts";
import { KEY_SHAPES } from "./key-shapes.ts";
import { type NamedValue, namedJsonValues } from "./text-pairs.ts";

/** One JSON line of a stream: where it stands among the body's pieces, and its parse. */
export interface EventLine {
  piece: number;
  /** Where the JSON starts in the piece (after `data:` and its space). */
  dataAt: number;
  parsed: unknown;
}

/** A string value of one event: the object or array holding it, and its key there. */
interface Fragment {
  line: EventLine;
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  value: string;
  /** Where the value starts in its channel's joined text. */
  start: number;
}

/**
 * What was found in a joined text: the part to replace, and the whole match that says it is
 * one (for a credential-named key, from the key's quote to the value's).
 */
type Found = NamedValue;

const INDEX_KEYS = ["index", "output_index", "content_index"] as const;

/** The part of a channel's name an object adds: its own index fields, if any. */
function indexPart(value: unknown): string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "";
  let part = "";
  for (const key of INDEX_KEYS) {
    const index = (value as Record<string, unknown>)[key];
    if (typeof index === "number") part += `#${key}=${index}`;
  }
  return part;
}

/**
 * Channels numbered as they are met, each by its parent's number and its own segment, so a
 * value's channel is a lookup and no name is built per value (a stream of 200 events has
 * thousands of values and a few dozen channels).
 */
class ChannelNumbers {
  readonly names: string[] = [""];
  readonly #children: Map<string, number>[] = [new Map()];

  of(parent: number, segment: string): number {
    const children = this.#children[parent] as Map<string, number>;
    let id = children.get(segment);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(`${this.names[parent]}/${segment}`);
      this.#children.push(new Map());
      children.set(segment, id);
    }
    return id;
  }
}

/**
 * Every string value of the events, by channel, in stream order. Walked without recursion:
 * a line nested ten thousand deep must not overflow the stack.
 */
export function streamChannels(lines: readonly EventLine[]): Map<string, Fragment[]> {
  const numbers = new ChannelNumbers();
  const channels: Fragment[][] = [];
  const add = (id: number, fragment: Fragment) => {
    const fragments = channels[id];
    if (fragments) fragments.push(fragment);
    else channels[id] = [fragment];
  };
  for (const line of lines) {
    const root = indexPart(line.parsed);
    const stack: [unknown, number][] = [[line.parsed, root ? numbers.of(0, root) : 0]];
    while (stack.length > 0) {
      const [value, channel] = stack.pop() as [unknown, number];
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const inner: unknown = value[i];
          // An element is named by its own index fields, else by its position.
          if (typeof inner === "string") {
            add(numbers.of(channel, `#${i}`), {
              line,
              holder: value,
              key: i,
              value: inner,
              start: 0,
            });
          } else if (inner !== null && typeof inner === "object") {
            stack.push([inner, numbers.of(channel, indexPart(inner) || `#${i}`)]);
          }
        }
      } else if (value !== null && typeof value === "object") {
        const holder = value as Record<string, unknown>;
        for (const key of Object.keys(holder)) {
          const inner = holder[key];
          if (typeof inner === "string") {
            add(numbers.of(channel, key), { line, holder, key, value: inner, start: 0 });
          } else if (inner !== null && typeof inner === "object") {
            stack.push([inner, numbers.of(channel, `${key}${indexPart(inner)}`)]);
          }
        }
      }
    }
  }
  const named = new Map<string, Fragment[]>();
  channels.forEach((fragments, id) => {
    named.set(numbers.names[id] as string, fragments);
  });
  return named;
}

/** Key shapes, the secrets given, and credential-named keys' string values in `text`. */
export function secretsIn(text: string, secrets: readonly string[]): Found[] {
  const found: Found[] = [];
  if (hasKeyPrefix(text)) {
    for (const shape of KEY_SHAPES) {
      for (const m of text.matchAll(shape)) {
        const end = m.index + m[0].length;
        found.push({ start: m.index, end, secret: m[0], matchStart: m.index, matchEnd: end });
      }
    }
  }
  for (const secret of secrets) {
    if (secret.length < MIN_TEXT_SECRET) continue;
    for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
      const end = at + secret.length;
      found.push({ start: at, end, secret, matchStart: at, matchEnd: end });
    }
  }
  found.push(...namedJsonValues(text));
  return found;
}

/** Those found whose match runs across fragments, without overlaps, in text order. */
function acrossFragments(found: Found[], fragments: readonly Fragment[]): Found[] {
  const crosses = (f: Found) =>
    fragments.some((x) => x.start > f.matchStart && x.start < f.matchEnd);
  const kept: Found[] = [];
  for (const f of [...found].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = kept[kept.length - 1];
    if (crosses(f) && (!last || f.start >= last.end)) kept.push(f);
  }
  return kept;
}

/** Each fragment's new value where a secret overlaps it (first part: the tag; others: nothing). */
function editedFragments(fragments: readonly Fragment[], found: readonly Found[]) {
  const edited = new Map<Fragment, string>();
  for (const fragment of fragments) {
    const end = fragment.start + fragment.value.length;
    let value = "";
    let at = fragment.start;
    for (const f of found) {
      if (f.end <= fragment.start || f.start >= end) continue;
      const from = Math.max(f.start, fragment.start);
      value += fragment.value.slice(at - fragment.start, from - fragment.start);
      if (from === f.start) value += redactionTag(f.secret);
      at = Math.min(f.end, end);
    }
    if (at === fragment.start) continue;
    edited.set(fragment, value + fragment.value.slice(at - fragment.start));
  }
  return edited;
}

/** The line with its edited values: in place where each old value's JSON occurs once, else re-serialized. */
function rewrittenLine(piece: string, line: EventLine, edits: [Fragment, string][]): string {
  let data = piece.slice(line.dataAt);
  let inPlace = true;
  for (const [fragment, value] of edits) {
    (fragment.holder as Record<string | number, unknown>)[fragment.key] = value;
    const old = JSON.stringify(fragment.value);
    const at = data.indexOf(old);
    if (!inPlace || at < 0 || data.indexOf(old, at + 1) >= 0) inPlace = false;
    else data = data.slice(0, at) + JSON.stringify(value) + data.slice(at + old.length);
  }
  return piece.slice(0, line.dataAt) + (inPlace ? data : stringifyDeep(line.parsed));
}

/**
 * Redact, in `pieces` (a body split into lines, `lines` its JSON ones), every secret cut
 * across the stream's events. The secrets found are returned, so the caller can look for
 * them in the rest of the body too.
 */
export function redactSplitSecrets(
  pieces: string[],
  lines: readonly EventLine[],
  extraSecrets: readonly string[],
): string[] {
  if (lines.length < 2) return [];
  const secrets = [...extraSecrets, ...environmentSecretsNow()];
  const byLine = new Map<EventLine, [Fragment, string][]>();
  const named: string[] = [];
  for (const fragments of streamChannels(lines).values()) {
    // A value every event repeats (an id, the model, an event type) is no fragment: only
    // its end glued to its start could look like a secret.
    const first = fragments[0]?.value;
    if (fragments.every((f) => f.value === first)) continue;
    let joined = "";
    for (const fragment of fragments) {
      fragment.start = joined.length;
      joined += fragment.value;
    }
    const found = acrossFragments(secretsIn(joined, secrets), fragments);
    if (found.length === 0) continue;
    for (const f of found) named.push(f.secret);
    for (const [fragment, value] of editedFragments(fragments, found)) {
      const edits = byLine.get(fragment.line) ?? [];
      edits.push([fragment, value]);
      byLine.set(fragment.line, edits);
    }
  }
  for (const [line, edits] of byLine) {
    pieces[line.piece] = rewrittenLine(pieces[line.piece] as string, line, edits);
  }
  return named;
}
