import type { Dialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { isFallbackRow, isStreamForm } from "../../dialects/reply-forms.ts";
import { dialectOfPath, replyFormOf } from "../../dialects/routes.ts";
import type { Cause } from "../causes.ts";
import {
  type ExchangeContext,
  type ExchangeRequest,
  type HeaderPairs,
  headerValue,
} from "../exchange.ts";
import type { Verdict } from "../verdict.ts";
import { show, showChange, verdict } from "./describe.ts";
import { headerField, PATH_FIELD } from "./field-names.ts";
import { noEquivalent } from "./no-equivalent.ts";

/** Headers judged by default when the client sent them (any header can be asked for by field). */
export const JUDGED_HEADERS = [
  "anthropic-beta",
  "anthropic-version",
  "openai-beta",
  "idempotency-key",
  "user-agent",
] as const;

/** Headers whose value is a comma list where order carries no meaning. */
const LIST_HEADERS = new Set(["anthropic-beta", "openai-beta"]);

function listOf(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .sort();
}

export function judgeHeader(
  name: string,
  client: HeaderPairs,
  forwarded: HeaderPairs,
  backend: Dialect,
): Verdict | undefined {
  const lower = name.toLowerCase();
  const sent = headerValue(client, lower);
  return sent === undefined ? undefined : judgeSentHeader(lower, sent, forwarded, backend);
}

const JUDGED: ReadonlySet<string> = new Set(JUDGED_HEADERS);

/**
 * `judgeHeader` for every one of JUDGED_HEADERS the client sent, in that order, pushed onto
 * `out`. One pass over the client's headers finds them: asking for each judged name in turn
 * scanned the headers five times (`headerValue` was 2% of judging's own profile).
 */
export function judgeDefaultHeaders(
  client: HeaderPairs,
  forwarded: HeaderPairs,
  backend: Dialect,
  out: Verdict[],
): void {
  let sent: (string | undefined)[] | undefined;
  for (const [name, value] of client) {
    if (!JUDGED.has(name)) continue;
    sent ??= [];
    const at = (JUDGED_HEADERS as readonly string[]).indexOf(name);
    // The first value counts, as headerValue gives it.
    if (sent[at] === undefined) sent[at] = value;
  }
  if (sent === undefined) return;
  for (let i = 0; i < JUDGED_HEADERS.length; i++) {
    const value = sent[i];
    if (value !== undefined)
      out.push(judgeSentHeader(JUDGED_HEADERS[i] as string, value, forwarded, backend));
  }
}

/** A header the client sent (`lower`, its name in lower case), against what was forwarded. */
function judgeSentHeader(
  lower: string,
  sent: string,
  forwarded: HeaderPairs,
  backend: Dialect,
): Verdict {
  const field = headerField(lower);
  const got = headerValue(forwarded, lower);
  const detail = showChange(sent, got);
  const base = { direction: "request", subject: field, field, sent, got } as const;
  if (got === undefined) {
    const row = noEquivalent("request", field, backend);
    return row
      ? verdict({ ...base, kind: "no-equivalent", detail: `${detail} (${backend}: ${row.reason})` })
      : verdict({ ...base, kind: "dropped", detail });
  }
  if (got === sent) return verdict({ ...base, kind: "preserved", detail });
  if (LIST_HEADERS.has(lower)) {
    const have = new Set(listOf(got));
    const missing = listOf(sent).filter((item) => !have.has(item));
    if (missing.length === 0) return verdict({ ...base, kind: "preserved", detail });
    return verdict({ ...base, kind: "mangled", detail: `${detail} (lost ${missing.join(", ")})` });
  }
  return verdict({ ...base, kind: "mangled", detail, cause: "replaced" });
}

/** What a forwarded path is, for a backend: the verdict and the words after its detail. */
export interface PathOutcome {
  kind: "preserved" | "mangled";
  note: string;
  cause?: Cause;
}

/** A provider's mount of the backend dialect (exchange context `backendMount`). */
export type BackendMount = NonNullable<ExchangeContext["backendMount"]>;

/** A dialect route as the provider serves it: under its mount in place of `replaces`. */
function mounted(route: string, mount: BackendMount | undefined): string {
  if (!mount || !route.startsWith(mount.replaces)) return route;
  return mount.at + route.slice(mount.replaces.length);
}

function pathOutcome(
  forwardedPath: string,
  backend: Dialect,
  mount: BackendMount | undefined,
): PathOutcome {
  const [path = "", query = ""] = forwardedPath.split("?");
  const routes = dialectModule(backend).routes;
  const match = dialectOfPath(path, mount?.at);
  const model = encodeURIComponent(match?.model ?? "");
  const plain = mounted(routes.generate(model), mount);
  const stream = mounted(routes.generateStream(model), mount);
  const [streamPath = "", streamQuery = ""] = stream.split("?");
  const where = mount ? ` at ${mount.provider}'s mount ${mount.at} (${mount.see})` : "";
  if (path === plain) return { kind: "preserved", note: `the ${backend} route${where}` };
  if (path === streamPath) {
    const params = new Set(query.split("&"));
    if (streamQuery === "" || params.has(streamQuery)) {
      return { kind: "preserved", note: `the ${backend} stream route${where}` };
    }
    // Another documented variant of the stream method (Gemini without `alt=sse` streams a
    // JSON array): the provider serves it, and the reply is judged in the form it has.
    const row = match?.kind === "generate" ? replyFormOf(match, query, {}) : undefined;
    if (row && !isFallbackRow(row) && isStreamForm(row.form)) {
      const note = `the ${backend} stream route${where}, ${row.variant} (${row.form}, ${row.see})`;
      return { kind: "preserved", note };
    }
    const note = `expected ?${streamQuery} or another documented variant`;
    return { kind: "mangled", note, cause: "missing-query" };
  }
  return { kind: "mangled", note: `expected ${show(plain)}${where}`, cause: "wrong-route" };
}

/**
 * Outcomes of recent forwarded paths, per backend (and provider mount): a sweep forwards to
 * the same few routes again and again, and working one out (two splits, the route regex, two
 * route strings) was 3–4% of judging's own profile (docs/lens.md, Round 4). Bounded: paths
 * come from traffic.
 */
const pathOutcomes = new Map<string, Map<string, PathOutcome>>();

export function knownPathOutcome(
  forwardedPath: string,
  backend: Dialect,
  mount?: BackendMount,
): PathOutcome {
  const key = mount ? `${backend} ${mount.at} ${mount.replaces}` : backend;
  let byPath = pathOutcomes.get(key);
  if (!byPath) {
    byPath = new Map();
    pathOutcomes.set(key, byPath);
  }
  let outcome = byPath.get(forwardedPath);
  if (outcome === undefined) {
    outcome = pathOutcome(forwardedPath, backend, mount);
    if (byPath.size >= 256) byPath.clear();
    byPath.set(forwardedPath, outcome);
  }
  return outcome;
}

/**
 * The forwarded path must be the backend dialect's documented generate route, under the
 * provider's mount where the backend is one (`mount`); a doubled version prefix
 * (`/v1/v1/...`) or another route is mangled.
 */
export function judgePath(
  clientPath: string,
  forwarded: ExchangeRequest,
  backend: Dialect,
  mount?: BackendMount,
): Verdict {
  const outcome = knownPathOutcome(forwarded.path, backend, mount);
  const detail = `${showChange(clientPath, forwarded.path)} (${outcome.note})`;
  return verdict({
    direction: "request",
    subject: PATH_FIELD,
    field: PATH_FIELD,
    kind: outcome.kind,
    detail,
    cause: outcome.cause,
  });
}
