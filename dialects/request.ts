/**
 * Request readers and writers of the five dialects behind one entry point.
 * readRequest: wire JSON -> CanonicalRequest, total over any JSON object.
 * writeRequest: CanonicalRequest -> wire JSON body (the "perfect translation" of the corpus).
 */
import type { RefinedSubject, RequestAttribute } from "./attributes.ts";
import type { CanonicalRequest } from "./canonical.ts";
import type { Dialect } from "./dialect.ts";
import { DialectError } from "./dialect-error.ts";
import { type AbsentSubject, accessorOf, type FieldRow } from "./field-table.ts";
import { isRecord, type JsonRecord } from "./json.ts";
import { carriesSubject } from "./presence.ts";
import { dialectModule } from "./registry.ts";
import { mergeExtras } from "./request-fields.ts";
import { meaningOf } from "./value-tables.ts";

export interface RequestContext {
  /** The request path; Gemini carries the model and the stream choice in it. */
  path?: string;
}

/**
 * Reads a request body of `dialect` into the canonical model. Throws DialectError
 * `not-an-object` when the body is not a JSON object; any other shape is kept raw.
 */
export function readRequest(
  dialect: Dialect,
  body: unknown,
  context: RequestContext = {},
): CanonicalRequest {
  const module = dialectModule(dialect);
  if (!isRecord(body)) {
    const what = body === null ? "null" : Array.isArray(body) ? "an array" : typeof body;
    throw new DialectError(
      "not-an-object",
      `${dialect} request body must be a JSON object, got ${what}`,
    );
  }
  return module.request.read(body, context);
}

/** A subject the request carried that the written body leaves out, and why. */
export interface Omission {
  subject: AbsentSubject;
  reason: string;
  see: string;
}

export interface WrittenRequest {
  body: JsonRecord;
  /** What the dialect cannot carry, from its field table's absent rows. */
  omitted: Omission[];
}

/**
 * Writes a canonical request as a `dialect` JSON body. Extras (keys the reader did not map)
 * are written back only when the request was read from the same dialect. What the dialect
 * cannot carry is left out of the body and named in `omitted`, with the table's reason.
 */
export function writeRequest(dialect: Dialect, request: CanonicalRequest): WrittenRequest {
  const module = dialectModule(dialect);
  const same = request.dialect === dialect;
  const written = module.request.write(request, same);
  const omitted: Omission[] = [];
  for (const row of module.fields.absent) {
    if (row.direction !== "request" || row.subject.startsWith("headers.")) continue;
    if (row.subject.startsWith("extras.")) {
      // A client key no attribute models: never written to another dialect (see above).
      if (!same && Object.hasOwn(request.extras, row.subject.slice("extras.".length))) {
        omitted.push({ subject: row.subject, reason: row.reason, see: row.see });
      }
      continue;
    }
    if (carriesSubject(request, row.subject as RequestAttribute | RefinedSubject)) {
      omitted.push({ subject: row.subject, reason: row.reason, see: row.see });
    }
  }
  if (!same) omitted.push(...untranslatedValues(module.fields.rows, request));
  return { body: same ? mergeExtras(written, request.extras) : written, omitted };
}

/** Enumerated values whose meaning the target's value table has no value for (left out). */
function untranslatedValues(rows: readonly FieldRow[], request: CanonicalRequest): Omission[] {
  const out: Omission[] = [];
  for (const row of rows) {
    const accessor = accessorOf(row);
    if (!row.values || !accessor) continue;
    const meaning = meaningOf(request.dialect, row.attribute, accessor.get(request));
    if (meaning === undefined) continue;
    const values = Object.keys(row.values);
    if (values.some((v) => row.values?.[v]?.meaning === meaning)) continue;
    const reason = `no value means ${meaning} (it has ${values.join(", ")})`;
    out.push({ subject: row.attribute, reason, see: row.see });
  }
  return out;
}

/** The path a written request is sent to (Gemini puts the model and streaming in it). */
export function requestPath(dialect: Dialect, request: CanonicalRequest): string {
  const routes = dialectModule(dialect).routes;
  const model = encodeURIComponent(request.model ?? "");
  return request.stream ? routes.generateStream(model) : routes.generate(model);
}

/** writeRequest's body alone, for callers that read the omissions elsewhere or not at all. */
export function writeRequestBody(dialect: Dialect, request: CanonicalRequest): JsonRecord {
  return writeRequest(dialect, request).body;
}
