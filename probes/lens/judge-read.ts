/**
 * Judging an exchange whose sides are already read into the canonical model: which
 * forwarded record is scored, what a missing or unreadable side means, and every verdict in
 * both directions, with the verdict for one subject (the probe's) taken from the same pass.
 */
import type { CanonicalReply, CanonicalRequest } from "../../dialects/canonical.ts";
import { dialectOfPath } from "../../dialects/routes.ts";
import type { Cause } from "../causes.ts";
import type { ClientSideExchange, ExchangeReply, ExchangeRequest } from "../exchange.ts";
import { extrasSubject, type Subject, subjectOf } from "../subject.ts";
import type { Verdict, VerdictKind } from "../verdict.ts";
import { clientCredentials, judgeCredential } from "./credential-judge.ts";
import { respelled, show, verdict } from "./describe.ts";
import { judgeErrorInternals } from "./error-internals.ts";
import { judgeFailure } from "./failure-judges.ts";
import {
  credentialField,
  headerField,
  isFailureField,
  isReplyFeature,
  isReplyInvariant,
  PATH_FIELD,
  REQUEST_ATTRIBUTES,
} from "./field-names.ts";
import { errorMessage, judgeReply, replyFeaturesOf } from "./judge-reply.ts";
import { carries, judgeRequestInto, type RequestPair, spelling } from "./judge-request.ts";
import { replyInvariantsInto } from "./reply-invariants.ts";
import { JUDGED_HEADERS, judgeDefaultHeaders, judgeHeader, judgePath } from "./wire-judges.ts";

/** A side that was read, or why it could not be. */
export type ReadSide<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ReadExchange {
  /** The exchange, `forwarded` empty when it was not recorded (see `forwardedRecorded`). */
  exchange: ClientSideExchange;
  client: CanonicalRequest;
  /** False when the exchange left `forwarded` out: the request direction is not judged. */
  forwardedRecorded: boolean;
  /** The forwarded record judged (scoredForward), found once by whoever read the exchange. */
  scored?: ExchangeRequest;
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
export function scoredForward(exchange: ClientSideExchange): ExchangeRequest | undefined {
  for (const f of exchange.forwarded) if (isGeneratePath(f.path)) return f;
  return exchange.forwarded[0];
}

/** A subject as the client's dialect spells it: what a verdict is due for. */
export interface Asked {
  subject: Subject;
  field: string;
}

/** Every subject of the client request a verdict can be due for, in report order. */
export function requestSubjects(read: ReadExchange): Asked[] {
  const { exchange, client } = read;
  const pair = { clientDialect: exchange.route.client, clientBody: exchange.clientRequest.body };
  const out: Asked[] = [];
  for (const attribute of REQUEST_ATTRIBUTES) {
    const field = spelling(pair, attribute);
    if (field !== undefined && carries(attribute, client)) out.push({ subject: attribute, field });
  }
  for (const key of Object.keys(client.extras))
    out.push({ subject: extrasSubject(key), field: key });
  for (const name of JUDGED_HEADERS) {
    if (exchange.clientRequest.headers.some(([n]) => n === name)) {
      const field = headerField(name);
      out.push({ subject: field, field });
    }
  }
  for (const c of clientCredentials(exchange.clientRequest, exchange.route.client)) {
    const field = credentialField(c.place, c.name);
    out.push({ subject: field, field });
  }
  out.push({ subject: PATH_FIELD, field: PATH_FIELD });
  return out;
}

/** When no request was forwarded: what the client got decides the verdict for every field. */
function notForwarded(read: ReadExchange, asked: readonly Asked[]): Verdict[] {
  const response = read.exchange.clientResponse;
  const message = read.clientReply?.ok ? errorMessage(read.clientReply.value.error) : undefined;
  let kind: VerdictKind;
  let detail: string;
  let cause: Cause | undefined;
  if (!response) {
    kind = "error";
    detail = "sent → nothing forwarded and no client response recorded";
  } else if (response.status >= 400) {
    kind = "rejected";
    detail = `sent → not forwarded; client got ${response.status}${message ? ` ${show(message)}` : " with no message"}`;
    if (!message) cause = "no-message";
  } else {
    kind = "dropped";
    detail = `sent → no request reached the backend; client got ${response.status}`;
    cause = "not-forwarded";
  }
  return asked.map(({ subject, field }) =>
    subject.startsWith("credentials.") && response
      ? verdict({
          direction: "request",
          subject,
          field,
          kind: "preserved",
          detail: "sent → not forwarded (nothing reached the backend)",
        })
      : verdict({ direction: "request", subject, field, kind, detail, cause }),
  );
}

/** A subject judged from the request's shape alone, not from its forwarded body. */
function wireSubject(subject: Subject): boolean {
  return (
    subject === PATH_FIELD || subject.startsWith("headers.") || subject.startsWith("credentials.")
  );
}

/** The forwarded body could not be read: every body subject asked is mangled. */
function unreadableForward(asked: readonly Asked[], why: string, out: Verdict[]): void {
  for (const { subject, field } of asked) {
    if (wireSubject(subject)) continue;
    const detail = `sent → unreadable forwarded body (${why})`;
    out.push(
      verdict({
        direction: "request",
        subject,
        field,
        kind: "mangled",
        detail,
        cause: "unreadable",
      }),
    );
  }
}

function requestVerdicts(read: ReadExchange): Verdict[] {
  // Not recorded is not "nothing was forwarded": there is nothing to compare the client with.
  if (!read.forwardedRecorded) return [];
  const { exchange, client } = read;
  const wire = read.scored ?? scoredForward(exchange);
  if (!wire || !read.forwarded) return notForwarded(read, requestSubjects(read));
  const out: Verdict[] = [];
  const backend = exchange.route.backend;
  if (!read.forwarded.ok) unreadableForward(requestSubjects(read), read.forwarded.error, out);
  else {
    const pair: RequestPair = {
      clientDialect: exchange.route.client,
      backend,
      client,
      forwarded: read.forwarded.value,
      clientBody: exchange.clientRequest.body,
      forwardedBody: wire.body,
    };
    judgeRequestInto(pair, out);
  }
  judgeDefaultHeaders(exchange.clientRequest.headers, wire.headers, backend, out);
  for (const c of clientCredentials(exchange.clientRequest, exchange.route.client)) {
    out.push(judgeCredential(c, exchange.forwarded, exchange.secrets));
  }
  out.push(judgePath(exchange.clientRequest.path, wire, backend, exchange.context.backendMount));
  return out;
}

function replyVerdicts(read: ReadExchange): Verdict[] {
  const { exchange } = read;
  const up = read.upstream;
  const upWire = exchange.upstreamReply as ExchangeReply | undefined;
  if (!up || !upWire) return [];
  if (!up.ok) return [unreadableUpstream("upstream", up.error)];
  const down = read.clientReply;
  const downWire = exchange.clientResponse;
  const features = replyFeaturesOf(up.value, upWire.status, exchange.mode);
  if (!down || !downWire) {
    return features.map((f) =>
      verdict({
        direction: "reply",
        subject: f,
        field: f,
        kind: "error",
        detail: "carried upstream → no client response recorded",
      }),
    );
  }
  if (!down.ok) {
    return features.map((f) =>
      verdict({
        direction: "reply",
        subject: f,
        field: f,
        kind: "mangled",
        detail: `carried upstream → unreadable client response (${down.error})`,
        cause: "unreadable",
      }),
    );
  }
  return judgeReply({
    clientDialect: exchange.route.client,
    backend: exchange.route.backend,
    mode: exchange.mode,
    upstream: up.value,
    upstreamStatus: upWire.status,
    client: down.value,
    clientStatus: downWire.status,
  });
}

function unreadableUpstream(subject: Subject, why: string): Verdict {
  const detail = `upstream reply → unreadable (${why})`;
  return verdict({ direction: "reply", subject, field: subject, kind: "error", detail });
}

/**
 * What the client's reply shows alone, judged whether or not the upstream was recorded; where it
 * was (and could be read), a fault the upstream's own reply showed is told apart as relayed.
 */
function invariantsOf(read: ReadExchange, out: Verdict[]): void {
  const down = read.clientReply;
  const { exchange } = read;
  const wire = exchange.clientResponse;
  if (!down?.ok || !wire) return;
  const up = read.upstream;
  const upWire = exchange.upstreamReply;
  const upstream =
    up?.ok && upWire
      ? { reply: up.value, dialect: exchange.route.backend, status: upWire.status }
      : undefined;
  replyInvariantsInto(down.value, exchange.route.client, wire.status, out, upstream);
}

/**
 * Internals in the client's error body that the upstream's did not hold; judged where what the
 * upstream sent is known (its reply recorded, or nothing forwarded: it sent nothing).
 */
function internalsOf(read: ReadExchange, out: Verdict[]): void {
  const down = read.clientReply;
  const { exchange } = read;
  const wire = exchange.clientResponse;
  if (!down?.ok || !wire) return;
  const upstream = exchange.upstreamReply;
  const nothingSent = read.forwardedRecorded && exchange.forwarded.length === 0;
  if (!upstream && !nothingSent) return;
  const v = judgeErrorInternals(down.value, wire.status, wire.body, upstream?.body ?? "");
  if (v) out.push(v);
}

/** Most severe first: the verdict a single-subject question answers with. */
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

function directionOf(subject: Subject): Verdict["direction"] {
  return isReplyFeature(subject) || isFailureField(subject) || isReplyInvariant(subject)
    ? "reply"
    : "request";
}

/**
 * The verdict for a subject the full pass did not judge: a failure field (judged only when
 * asked: it reads the exchange's clock), a header outside the judged set, a subject the client
 * did not send (what the client got says why when nothing was forwarded), a reply feature
 * the upstream did not carry.
 */
function beyondThePass(read: ReadExchange, asked: Asked): Verdict {
  const { subject, field } = asked;
  if (isFailureField(subject)) return judgeFailure(read, subject);
  const { exchange } = read;
  if (directionOf(subject) === "reply") {
    if (read.upstream && exchange.upstreamReply && !read.upstream.ok) {
      return unreadableUpstream(subject, read.upstream.error);
    }
  } else {
    const wire = read.scored ?? scoredForward(exchange);
    if (!wire || !read.forwarded) return notForwarded(read, [asked])[0] as Verdict;
    if (!read.forwarded.ok && !wireSubject(subject)) {
      const out: Verdict[] = [];
      unreadableForward([asked], read.forwarded.error, out);
      return out[0] as Verdict;
    }
    if (subject.startsWith("headers.")) {
      const name = subject.slice("headers.".length);
      const v = judgeHeader(
        name,
        exchange.clientRequest.headers,
        wire.headers,
        exchange.route.backend,
      );
      if (v) return v;
    }
  }
  const direction = directionOf(subject) ?? "request";
  const where = direction === "reply" ? "the upstream reply" : "the client request";
  return verdict({
    direction,
    subject,
    field,
    kind: "error",
    detail: `not present in ${where}, nothing to judge`,
    cause: "absent-in-source",
  });
}

export interface Judged {
  /** Every verdict of the exchange, request direction first. */
  verdicts: Verdict[];
  /** The verdict for the subject asked (the most severe where several apply), in its spelling. */
  verdict?: Verdict;
}

/**
 * Every verdict of the exchange and, when a subject is asked (the probe's), its verdict: the
 * most severe the pass gave that subject, named in the spelling asked; or, where the pass
 * gives none, why (beyondThePass).
 */
export function judgeRead(read: ReadExchange, asked?: Asked): Judged {
  const verdicts = requestVerdicts(read);
  for (const v of replyVerdicts(read)) verdicts.push(v);
  invariantsOf(read, verdicts);
  internalsOf(read, verdicts);
  if (asked === undefined) return { verdicts };
  const direction = directionOf(asked.subject);
  const own = worst(
    verdicts.filter((v) => v.subject === asked.subject && v.direction === direction),
  );
  return { verdicts, verdict: own ? respelled(own, asked.field) : beyondThePass(read, asked) };
}

/** The verdict for one field as the client's dialect spells it (or a subject's own name). */
export function judgeReadField(read: ReadExchange, field: string): Verdict {
  const subject = subjectOf(read.exchange.route.client, field);
  return judgeRead(read, { subject, field }).verdict as Verdict;
}
