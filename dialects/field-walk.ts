/**
 * The reader and the writer walking a field table's value rows (field-table.ts): each row's
 * wire value read at its dotted path into the canonical request, or written from it. Nested
 * containers (`generationConfig`, `options`, `stream_options`) are opened once per body and
 * shared with the dialect's own code, which reads the rest of them (BodyReader.at).
 */
import type { CanonicalRequest } from "./canonical.ts";
import { accessorOf, type FieldRow } from "./field-table.ts";
import { isRecord, type JsonRecord } from "./json.ts";
import { FieldReader } from "./request-fields.ts";
import { meaningOf } from "./value-tables.ts";

/** This row's value meaning what `value` means in the request's own dialect, if it has one. */
function translatedValue(request: CanonicalRequest, row: FieldRow, value: unknown): unknown {
  const meaning = meaningOf(request.dialect, row.attribute, value);
  if (meaning === undefined) return value;
  const values = row.values ?? {};
  return Object.keys(values).find((v) => values[v]?.meaning === meaning);
}

/** A parse that accepts nothing: the value is kept raw in extras. */
const refuse = (): undefined => undefined;

interface Opened {
  reader: FieldReader | undefined;
  parent: FieldReader | undefined;
  key: string;
}

/** One request body being read: the root reader and the containers opened under it. */
export class BodyReader {
  readonly root: FieldReader;
  readonly #opened = new Map<string, Opened>();

  constructor(readonly body: JsonRecord) {
    this.root = new FieldReader(body);
  }

  /**
   * The reader of the object at the dotted `container` path ("" is the body), opened once:
   * undefined when absent or not an object (then kept raw in extras).
   */
  at(container: string): FieldReader | undefined {
    if (container === "") return this.root;
    const known = this.#opened.get(container);
    if (known) return known.reader;
    const dot = container.lastIndexOf(".");
    const parent = this.at(dot < 0 ? "" : container.slice(0, dot));
    const key = dot < 0 ? container : container.slice(dot + 1);
    const reader = parent?.open(key);
    this.#opened.set(container, { reader, parent, key });
    return reader;
  }

  /** The extras: each opened container's unread keys folded into its parent, deepest first. */
  finish(): JsonRecord {
    const opened = [...this.#opened.values()].reverse();
    for (const { reader, parent, key } of opened) {
      if (reader && parent) parent.close(key, reader);
    }
    return this.root.rest();
  }
}

function split(path: string): { container: string; key: string } {
  const dot = path.lastIndexOf(".");
  return dot < 0
    ? { container: "", key: path }
    : { container: path.slice(0, dot), key: path.slice(dot + 1) };
}

/**
 * Reads every value row of `rows` into `out`, in the table's order. A value the row's codec
 * does not accept stays raw in extras under its own key. A row whose aliases are read
 * (`readsAliases`) takes the first alias sent when its path is absent; an alias sent beside
 * the path stays raw, so neither value is lost.
 */
export function readValueRows(
  body: BodyReader,
  out: CanonicalRequest,
  rows: readonly FieldRow[],
): void {
  for (const row of rows) {
    const codec = row.codec;
    const accessor = accessorOf(row);
    if (!codec || !accessor) continue;
    const { container, key } = split(row.path);
    const reader = body.at(container);
    if (!reader) continue;
    let value = reader.take(key, codec.read);
    if (row.readsAliases) {
      for (const alias of row.aliases ?? []) {
        if (value === undefined) value = reader.take(alias, codec.read);
        else reader.take(alias, refuse);
      }
    }
    if (value !== undefined) accessor.set(out, value);
  }
}

/** Sets `value` at the dotted `path` of `body`, making the objects on the way. */
function setAt(body: JsonRecord, path: string, value: unknown): void {
  const { container, key } = split(path);
  let here = body;
  if (container !== "") {
    for (const step of container.split(".")) {
      const next = here[step];
      if (isRecord(next)) here = next;
      else {
        const made: JsonRecord = {};
        here[step] = made;
        here = made;
      }
    }
  }
  here[key] = value;
}

/**
 * Writes every value row's value the request holds into `body`, at the row's path; an
 * extension row only when the request was read from this dialect (`same`).
 */
export function writeValueRows(
  body: JsonRecord,
  request: CanonicalRequest,
  rows: readonly FieldRow[],
  same: boolean,
): JsonRecord {
  for (const row of rows) {
    const codec = row.codec;
    const accessor = accessorOf(row);
    if (!codec || !accessor || (row.extension && !same)) continue;
    let v = accessor.get(request);
    // An enumerated value goes as this dialect's value of the same meaning, or not at all
    // (writeRequest names it in `omitted`).
    if (v !== undefined && row.values && !same) v = translatedValue(request, row, v);
    if (v !== undefined) setAt(body, row.path, codec.write(v));
  }
  return body;
}
