/**
 * Test support for the planted-shape tests (the mock's and the sweep's): where one sample of
 * each catalogued key shape is planted, and what to look for on disk afterwards. Imported by
 * tests only.
 */
import { KEY_SHAPE_TABLE, type KeyShape, plantedExample } from "./key-shapes.ts";

/** The catalogue, each row with a short name usable in a header, a field or a query. */
export const PLANTED_ROWS: readonly (KeyShape & { name: string })[] = KEY_SHAPE_TABLE.map(
  (row, i) => ({ ...row, name: `shape${i}` }),
);

/** The row's example as a URL's password (`https://bob:<example>@host`), encoded as one. */
export function inUserinfo(row: KeyShape, host = "db.example.com"): string {
  return `https://bob:${encodeURIComponent(row.example)}@${host}/x`;
}

/** Text as a header can carry it: a line break (a PEM key's) as its JSON escape. */
export function headerSafe(text: string): string {
  return text.replaceAll("\n", "\\n");
}

/** Free text holding the row's sample where it is a secret, and as a URL's password. */
export function freeText(row: KeyShape): string {
  return `note: ${plantedExample(row)} and see ${inUserinfo(row)} for more`;
}

/**
 * What shows that a row's example reached a file: the example as written, as JSON and
 * percent-encoding spell it, and its longest run of letters and digits (12 or more), which
 * survives any of those spellings (a PEM body, a JWT's header).
 */
export function needlesOf(row: KeyShape): string[] {
  const needles = new Set([
    row.example,
    JSON.stringify(row.example).slice(1, -1),
    encodeURIComponent(row.example),
  ]);
  const longest = (row.example.match(/[A-Za-z0-9]+/g) ?? []).reduce(
    (a, b) => (b.length > a.length ? b : a),
    "",
  );
  if (longest.length >= 12) needles.add(longest);
  return [...needles];
}

/** `row: place` for every row whose example (in any spelling of it) is in `text`. */
export function shapesFoundIn(text: string, place: string): string[] {
  return PLANTED_ROWS.filter((row) => needlesOf(row).some((n) => text.includes(n))).map(
    (row) => `${row.provider}: ${place}`,
  );
}
