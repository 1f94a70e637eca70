/**
 * What the mock reads off a request before answering: the dialect its path implies (or the
 * best guess for a path no dialect owns), what it asks for (generate, model list), the model,
 * whether it wants a stream, and whether it accepts gzip.
 */
import { redactText } from "../dialects/credentials.ts";
import type { Dialect } from "../dialects/dialect.ts";
import { asRecord } from "../dialects/json.ts";
import type { ReplyFormRow } from "../dialects/reply-forms.ts";
import {
  dialectOfPath,
  guessDialect as guessPathDialect,
  replyFormOf,
  requestStreams,
  sharedModelsDialect,
} from "../dialects/routes.ts";
import { headerValue, type RequestKind } from "./record.ts";

export interface RouteFacts {
  /** The dialect the path implies; undefined when no dialect owns the path. */
  dialect?: Dialect;
  /** The dialect whose error shape answers: the path's, or a guess from headers and path. */
  answerDialect: Dialect;
  kind: RequestKind;
  /** The path with the listener prefix removed. */
  prefixless: string;
  /** Gemini's model comes from the path. */
  pathModel?: string;
  pathStream?: boolean;
}

type Headers = readonly (readonly [string, string])[];

/** A path no dialect owns still gets an error in the shape its caller most likely reads. */
export function guessDialect(path: string, headers: Headers): Dialect {
  return guessPathDialect(
    path,
    headers.map(([name]) => name),
  );
}

/**
 * Route facts of generate paths, which depend on the path and prefix alone (model lists and
 * unknown paths also read headers): a listener sees the same few paths all run long, and
 * matching them cost a regex and a split per request. Shared, never written to.
 */
const generateRoutes = new Map<string, Map<string, RouteFacts>>();
const GENERATE_ROUTES_LIMIT = 1024;

export function routeFacts(path: string, prefix: string, headers: Headers): RouteFacts {
  let forPrefix = generateRoutes.get(prefix);
  const known = forPrefix?.get(path);
  if (known) return known;
  const facts = matchRoute(path, prefix, headers);
  if (facts.kind === "generate") {
    if (!forPrefix) {
      forPrefix = new Map();
      generateRoutes.set(prefix, forPrefix);
    }
    if (forPrefix.size >= GENERATE_ROUTES_LIMIT) forPrefix.clear();
    forPrefix.set(path, facts);
  }
  return facts;
}

function matchRoute(path: string, prefix: string, headers: Headers): RouteFacts {
  const prefixless = prefix && path.startsWith(prefix) ? path.slice(prefix.length) || "/" : path;
  const match = dialectOfPath(path, prefix);
  if (!match) return { answerDialect: guessDialect(path, headers), kind: "unknown", prefixless };
  let dialect = match.dialect;
  if (match.shared) {
    dialect = sharedModelsDialect(headers.map(([k]) => k));
  }
  return {
    dialect,
    answerDialect: dialect,
    kind: match.kind,
    prefixless,
    // Echoed in the default reply and kept in the record: redacted as the body's model is.
    ...(match.model === undefined ? {} : { pathModel: redactText(match.model) }),
    ...(match.stream === undefined ? {} : { pathStream: match.stream }),
  };
}

/** The model a request names: Gemini's path, else the body's `model`. */
export function requestModel(route: RouteFacts, json: unknown): string | undefined {
  if (route.pathModel !== undefined) return route.pathModel;
  const model = asRecord(json)?.model;
  return typeof model === "string" ? model : undefined;
}

/** Whether the request asks for a stream (dialects/routes.ts requestStreams). */
export function wantsStream(route: RouteFacts, json: unknown): boolean {
  if (route.dialect === undefined) return route.pathStream ?? false;
  const match = route.pathStream === undefined ? {} : { stream: route.pathStream };
  return requestStreams({ dialect: route.dialect, kind: "generate", ...match }, json);
}

/**
 * The reply-form row that answers a request (dialects/reply-forms.ts): what its dialect's
 * provider answers that variant with. Undefined for a path no dialect owns.
 */
export function replyFormFor(
  route: RouteFacts,
  query: string,
  json: unknown,
): ReplyFormRow | undefined {
  if (route.dialect === undefined) return undefined;
  const match = route.pathStream === undefined ? {} : { stream: route.pathStream };
  return replyFormOf({ dialect: route.dialect, kind: "generate", ...match }, query, json);
}

/** `accept-encoding` allows gzip (and does not give it q=0). */
export function acceptsGzip(headers: Headers): boolean {
  const value = headerValue(headers, "accept-encoding");
  if (!value) return false;
  return value.split(",").some((item) => {
    const [coding, ...params] = item.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

let lastContentType: string | undefined;
let lastContentTypeIsJson = false;

/**
 * JSON content types: `application/json` and `application/*+json`, any parameters. A
 * client sends the same value all run long: the last answer is remembered.
 */
export function isJsonContentType(value: string): boolean {
  if (value === lastContentType) return lastContentTypeIsJson;
  const type = value.split(";")[0]?.trim().toLowerCase() ?? "";
  lastContentTypeIsJson = type === "application/json" || /^application\/[\w.-]+\+json$/.test(type);
  lastContentType = value;
  return lastContentTypeIsJson;
}
