/**
 * Judging an exchange whose sides are already read into the canonical model: which
 * forwarded record is scored, what a missing or unreadable side means, and every verdict in
 * both directions (or only those for one field).
 */
import type { CanonicalReply, CanonicalRequest } from "../../dialects/canonical.ts";
import { dialectOfPath } from "../../dialects/routes.ts";
import type { Exchange, WireReply, WireRequest } from "../exchange.ts";
import type { Verdict, VerdictKind } from "../verdict.ts";
import { show, verdict } from "./describe.ts";
import { judgeFailure } from "./failure-judges.ts";
import {
  attributeOf,
  credentialField,
  headerField,
  isFailureField,
  isReplyFeature,
  PATH_FIELD,
  REQUEST_ATTRIBUTES,
  type ReplyFeature,
} from "./field-names.ts";
import {
  errorMessage,
  judgeReply,
  judgeReplyFeature,
  type ReplyPair,
  replyFeaturesOf,
  replyInventions,
} from "./judge-reply.ts";
import {
  carries,
  judgeAttribute,
  judgeInventions,
  judgeRequestInto,
  judgeUnknownKey,
  type RequestPair,
  spelling,
} from "./judge-request.ts";
import {
  clientCredentials,
  JUDGED_HEADERS,
  judgeCredential,
  judgeDefaultHeaders,
  judgeHeader,
  judgePath,
} from "./wire-judges.ts";

/** A side that was read, or why it could not be. */
export type ReadSide<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ReadExchange {
  exchange: Exchange;
  client: CanonicalRequest;
  /** The forwarded record judged (scoredForward), found once by whoever read the exchange. */
  scored?: WireRequest;
  /** The scored forwarded request, read; undefined when nothing was forwarded. */
  forwarded?: ReadSide<CanonicalRequest>;
  upstream?: ReadSide<CanonicalReply>;
  clientReply?: ReadSide<CanonicalReply>;
}

/**
 * Whether recent forwarded paths are generate routes: a sweep forwards to the same few paths,
 * and matching one (a split, the Gemini route regex, a result object) was 1.5% of a typical
 * exchange's profile (docs/lens.md, Round 4). Bounded: paths come from traffic.
 */
const generatePaths = new Map<string, boolean>();

function isGeneratePath(path: string): boolean {
  let generate = generatePaths.get(path);
  if (generate === undefined) {
    // dialectOfPath leaves the query out itself.
    generate = dialectOfPath(path)?.kind === "generate";
    if (generatePaths.size >= 256) generatePaths.clear();
    generatePaths.set(path, generate);
  }
  return generate;
}

/** The forwarded record judged as the probe: the first to a generate route, else the first. */
export function scoredForward(exchange: Exchange): WireRequest | undefined {
  for (const f of exchange.forwarded) if (isGeneratePath(f.path)) return f;
  return exchange.forwarded[0];
}

/** Every client-request field name a verdict can be due for, in report order. */
export function requestFields(read: ReadExchange): string[] {
  const { exchange, client } = read;
  const pair = { clientDialect: exchange.route.client, clientBody: exchange.clientRequest.body };
  const out: string[] = [];
  for (const attribute of REQUEST_ATTRIBUTES) {
    const field = spelling(pair, attribute);
    if (field !== undefined && carries(attribute, client)) out.push(field);
  }
  out.push(...Object.keys(client.extras));
  for (const name of JUDGED_HEADERS) {
    if (exchange.clientRequest.headers.some(([n]) => n === name)) out.push(headerField(name));
  }
  for (const c of clientCredentials(exchange.clientRequest))
    out.push(credentialField(c.place, c.name));
  out.push(PATH_FIELD);
  return out;
}

/** When no request was forwarded: what the client got decides the verdict for every field. */
function notForwarded(read: ReadExchange, fields: string[]): Verdict[] {
  const response = read.exchange.clientResponse;
  const message = read.clientReply?.ok ? errorMessage(read.clientReply.value.error) : undefined;
  let kind: VerdictKind;
  let why: string;
  let cause: string | undefined;
  if (!response) {
    kind = "error";
    why = "sent → nothing forwarded and no client response recorded";
  } else if (response.status >= 400) {
    kind = "rejected";
    why = `sent → not forwarded; client got ${response.status}${message ? ` ${show(message)}` : " with no message"}`;
    if (!message) cause = "no-message";
  } else {
    kind = "dropped";
    why = `sent → no request reached the backend; client got ${response.status}`;
    cause = "not-forwarded";
  }
  return fields.map((field) =>
    field.startsWith("credentials.") && response
      ? verdict(
          "request",
          field,
          "preserved",
          `${field}: sent → not forwarded (nothing reached the backend)`,
        )
      : verdict("request", field, kind, `${field}: ${why}`, cause),
  );
}

function fieldsAsked(read: ReadExchange, only: string | undefined): string[] {
  return only === undefined ? requestFields(read) : [only];
}

function requestVerdicts(read: ReadExchange, only?: string): Verdict[] {
  const { exchange, client } = read;
  const wire = read.scored ?? scoredForward(exchange);
  if (!wire || !read.forwarded) return notForwarded(read, fieldsAsked(read, only));
  const out: Verdict[] = [];
  const backend = exchange.route.backend;
  if (!read.forwarded.ok) {
    const why = read.forwarded.error;
    for (const field of fieldsAsked(read, only)) {
      if (field === PATH_FIELD || field.startsWith("headers.") || field.startsWith("credentials."))
        continue;
      out.push(
        verdict(
          "request",
          field,
          "mangled",
          `${field}: sent → unreadable forwarded body (${why})`,
          "unreadable",
        ),
      );
    }
  } else {
    const pair: RequestPair = {
      clientDialect: exchange.route.client,
      backend,
      client,
      forwarded: read.forwarded.value,
      clientBody: exchange.clientRequest.body,
    };
    if (only === undefined) judgeRequestInto(pair, out);
    else {
      const attribute = attributeOf(exchange.route.client, only);
      const v = attribute ? judgeAttribute(pair, attribute) : undefined;
      // Asked by an alias (`messages[role=developer]`): the verdict answers in the words asked.
      if (v && v.field !== only) {
        out.push({ ...v, field: only, reason: `${only}${v.reason.slice(v.field.length)}` });
      } else if (v) out.push(v);
      else if (only in client.extras) out.push(judgeUnknownKey(pair, only));
      out.push(...judgeInventions(pair).filter((inv) => inv.field === only));
    }
  }
  if (only === undefined) {
    judgeDefaultHeaders(exchange.clientRequest.headers, wire.headers, backend, out);
  } else if (only.startsWith("headers.")) {
    const v = judgeHeader(only.slice(8), exchange.clientRequest.headers, wire.headers, backend);
    if (v) out.push(v);
  }
  for (const c of clientCredentials(exchange.clientRequest)) {
    if (only === undefined || only === credentialField(c.place, c.name))
      out.push(judgeCredential(c, exchange.forwarded, exchange.secrets));
  }
  if (only === undefined || only === PATH_FIELD)
    out.push(judgePath(exchange.clientRequest.path, wire, backend));
  return out;
}

/**
 * The upstream reply's features, or only the one asked for. Worked out where a branch needs
 * them: judgeReply lists them itself, so the full pass listed them twice.
 */
function askedFeatures(
  upstream: CanonicalReply,
  status: number,
  mode: Exchange["mode"],
  only: string | undefined,
): ReplyFeature[] {
  const features = replyFeaturesOf(upstream, status, mode);
  return only === undefined ? features : features.filter((f) => f === only);
}

function replyVerdicts(read: ReadExchange, only?: string): Verdict[] {
  const { exchange } = read;
  const up = read.upstream;
  const upWire = exchange.upstreamReply as WireReply | undefined;
  if (!up || !upWire) return [];
  if (!up.ok) {
    const field = only ?? "upstream";
    return [
      verdict("reply", field, "error", `${field}: upstream reply → unreadable (${up.error})`),
    ];
  }
  const down = read.clientReply;
  const downWire = exchange.clientResponse;
  if (!down || !downWire) {
    return askedFeatures(up.value, upWire.status, exchange.mode, only).map((f) =>
      verdict("reply", f, "error", `${f}: carried upstream → no client response recorded`),
    );
  }
  if (!down.ok) {
    return askedFeatures(up.value, upWire.status, exchange.mode, only).map((f) =>
      verdict(
        "reply",
        f,
        "mangled",
        `${f}: carried upstream → unreadable client response (${down.error})`,
        "unreadable",
      ),
    );
  }
  const pair: ReplyPair = {
    clientDialect: exchange.route.client,
    backend: exchange.route.backend,
    mode: exchange.mode,
    upstream: up.value,
    upstreamStatus: upWire.status,
    client: down.value,
    clientStatus: downWire.status,
  };
  if (only === undefined) return judgeReply(pair);
  return [
    ...askedFeatures(up.value, upWire.status, exchange.mode, only).map((f) =>
      judgeReplyFeature(pair, f),
    ),
    ...replyInventions(pair).filter((v) => v.field === only),
  ];
}

export function judgeRead(read: ReadExchange): Verdict[] {
  const out = requestVerdicts(read);
  for (const v of replyVerdicts(read)) out.push(v);
  return out;
}

/** Most severe first: the verdict a single-field question answers with. */
const SEVERITY: readonly VerdictKind[] = [
  "leaked",
  "mangled",
  "dropped",
  "invented",
  "rejected",
  "error",
  "no-equivalent",
  "preserved",
  "not-run",
];

export function worst(verdicts: readonly Verdict[]): Verdict | undefined {
  let best: Verdict | undefined;
  for (const v of verdicts) {
    if (!best || SEVERITY.indexOf(v.verdict) < SEVERITY.indexOf(best.verdict)) best = v;
  }
  return best;
}

/** The verdict for one field (request spelling or reply feature); `error` when not judgeable. */
export function judgeReadField(read: ReadExchange, field: string): Verdict {
  if (isFailureField(field)) return judgeFailure(read, field);
  const verdicts = isReplyFeature(field)
    ? replyVerdicts(read, field)
    : requestVerdicts(read, field);
  const found = worst(verdicts.filter((v) => v.field === field));
  if (found) return found;
  const direction = isReplyFeature(field) ? "reply" : "request";
  const where = direction === "reply" ? "the upstream reply" : "the client request";
  return verdict(
    direction,
    field,
    "error",
    `${field}: not present in ${where}, nothing to judge`,
    "absent-in-source",
  );
}
