/**
 * Traffic: every request that is not the control API. It is read whole, judged, recorded,
 * and only then answered, so a record exists before the client sees a byte of the reply.
 * Order of judgement for a generate request: method, body limit, empty body, content type,
 * JSON, persona, staged reply, default reply. Model lists take a staged reply first, then
 * their list; a path no dialect (or mount) serves gets the 404, never a staged reply.
 */

import type { Socket } from "node:net";
import { redactPath } from "../dialects/credential-url.ts";
import { redactHeaderPairs } from "../dialects/credentials.ts";
import type { Dialect } from "../dialects/dialect.ts";
import { isRecord } from "../dialects/json.ts";
import { dialectModule } from "../dialects/registry.ts";
import { isStreamForm } from "../dialects/reply-forms.ts";
import { type Decision, errorDecision, notFoundDecision } from "./decision.ts";
import { jsonBody } from "./dialect-replies.ts";
import { isHeavyReply, planHeavyReply } from "./heavy-render.ts";
import { MOCK_MODELS } from "./model-lists.ts";
import type { SocketTrouble } from "./parser-refusal.ts";
import type { Persona } from "./personas/index.ts";
import { type RequestSource, readRequest } from "./read-request.ts";
import { bodyFacts, headerValue, type RawRequest, type RequestFacts } from "./record.ts";
import type { Recorder } from "./recorder.ts";
import { replyBytes } from "./reply-bytes.ts";
import { planReply, planReplyNow, type ReplyContext } from "./reply-engine.ts";
import {
  isJsonContentType,
  type RouteFacts,
  replyFormFor,
  requestModel,
  routeFacts,
  wantsStream,
} from "./request-facts.ts";
import { withRequestId } from "./request-id.ts";
import type { StageStore } from "./stage-store.ts";
import { trafficLine } from "./traffic-record.ts";
import { sentHeaders, type WireReply } from "./wire-plan.ts";

export interface TrafficState {
  listener: string;
  prefix: string;
  bodyLimit: number;
  recorder: Recorder;
  stages: StageStore;
  persona?: Persona;
  /** Random per listener: the first half of every reply's request id (request-id.ts). */
  requestIdPrefix: string;
  /**
   * Sockets whose request went wrong outside the listener's view (parser-refusal.ts): timed
   * out mid-request (recorded as 408, cut-off.ts) or refused by the parser mid-body.
   */
  cutOff: WeakMap<Socket, SocketTrouble>;
}

/** Malformed input, judged as the providers do: one 400 (or 413) per kind of problem. */
function inputProblem(
  raw: RawRequest,
  facts: RequestFacts | undefined,
  bodyLimit: number,
  dialect: Dialect | undefined,
): Decision | undefined {
  if (raw.bodyTruncated) {
    return errorDecision(
      413,
      "body-too-large",
      `Request body of ${raw.bodyBytes} bytes exceeds the limit of ${bodyLimit} bytes.`,
    );
  }
  if (raw.bodyBytes === 0) {
    return errorDecision(
      400,
      "empty-body",
      "The request body is empty; a JSON object was expected.",
    );
  }
  const contentType = headerValue(raw.headers, "content-type");
  // Ollama binds the body as JSON whatever the content type says; LiteLLM's ollama_chat
  // provider sends application/octet-stream (dialects/ollama/index.ts bodyContentType).
  const checksType =
    dialect === undefined || dialectModule(dialect).traits.bodyContentType === "json";
  if (checksType && contentType !== undefined && !isJsonContentType(contentType)) {
    return errorDecision(
      400,
      "wrong-content-type",
      `Unsupported content type ${JSON.stringify(contentType)}; expected application/json.`,
    );
  }
  if (facts?.jsonError !== undefined) {
    return errorDecision(
      400,
      "malformed-json",
      `We could not parse the JSON body of your request (${facts.jsonError}).`,
    );
  }
  if (!isRecord(facts?.json)) {
    return errorDecision(400, "body-not-object", "The request body must be a JSON object.");
  }
  return undefined;
}

/** The staged reply this request takes, if one matches (it is used up). */
function takeStaged(
  state: TrafficState,
  raw: RawRequest,
  route: RouteFacts,
  rawText: string,
  model: string | undefined,
): Decision | undefined {
  const taken = state.stages.take({ rawText, model, path: raw.path, prefixless: route.prefixless });
  if (!taken) return undefined;
  return {
    spec: taken.reply,
    reply: { status: taken.reply.status, staged: true, stagedId: taken.id },
  };
}

function decide(
  raw: RawRequest,
  route: RouteFacts,
  facts: RequestFacts | undefined,
  rawText: string,
  model: string | undefined,
  state: TrafficState,
): Decision {
  if (route.kind === "unknown") {
    // The provider does not serve the path, so nothing staged answers it, a nonce-bound reply
    // included: a gateway that builds a wrong URL gets the provider's 404, as it would live.
    return notFoundDecision(raw, route.answerDialect);
  }
  if (route.kind === "models") {
    if (raw.method !== "GET") {
      return errorDecision(
        405,
        "method-not-allowed",
        `Method ${raw.method} not allowed on ${redactPath(raw.path)}`,
      );
    }
    const module = dialectModule(route.answerDialect);
    return (
      takeStaged(state, raw, route, rawText, model) ?? {
        spec: { status: 200 },
        reply: { status: 200, staged: false },
        body: jsonBody(module.reply.modelList(MOCK_MODELS[module.provider])),
      }
    );
  }
  if (raw.method !== "POST") {
    return errorDecision(
      405,
      "method-not-allowed",
      `Method ${raw.method} not allowed on ${redactPath(raw.path)}`,
    );
  }
  const problem = inputProblem(raw, facts, state.bodyLimit, route.dialect);
  if (problem) return problem;
  if (state.persona && route.dialect) {
    const rejection = state.persona.check({
      dialect: route.dialect,
      path: route.prefixless,
      body: facts?.json,
      headers: redactHeaderPairs(raw.headers),
    });
    if (rejection) {
      return {
        spec: { status: rejection.status },
        reply: {
          status: rejection.status,
          staged: false,
          persona: state.persona.name,
          personaRule: rejection.rule,
        },
        body: jsonBody(rejection.body),
      };
    }
  }
  const taken = takeStaged(state, raw, route, rawText, model);
  if (!state.persona) return taken ?? DEFAULT_DECISION;
  const persona = state.persona.name;
  if (taken) return { ...taken, reply: { ...taken.reply, persona } };
  return { spec: { status: 200 }, reply: { status: 200, staged: false, persona } };
}

/**
 * The decision of almost every request: the dialect's default reply. One shared object,
 * never written to.
 */
const DEFAULT_DECISION: Decision = Object.freeze({
  spec: Object.freeze({ status: 200 }),
  reply: Object.freeze({ status: 200, staged: false }),
});

let clockMs = -1;
let clockIso = "";

/** `new Date().toISOString()`, formatted once per millisecond: under load many requests share one. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== clockMs) {
    clockMs = ms;
    clockIso = new Date(ms).toISOString();
  }
  return clockIso;
}

export interface TrafficOutcome {
  wire: WireReply;
}

/** When a request arrived: its sequence number and time, taken before its body is read. */
export interface Arrival {
  seq: number;
  receivedAt: string;
}

export function arrive(state: TrafficState): Arrival {
  return { seq: state.recorder.nextSeq(), receivedAt: isoNow() };
}

/** Read, judge, record, and plan the reply of one request. */
export async function handleTraffic(
  source: RequestSource,
  state: TrafficState,
): Promise<TrafficOutcome> {
  const arrival = arrive(state);
  const raw = await readRequest(source, state.bodyLimit);
  return { wire: await answerTraffic(raw, arrival, state) };
}

/** What recording a request needs beside the decision and its wire plan. */
export interface Judged {
  arrival: Arrival;
  state: TrafficState;
  raw: RawRequest;
  route: RouteFacts;
  facts: RequestFacts | undefined;
  model: string | undefined;
  stream: boolean;
  ctx: ReplyContext;
}

/**
 * Record a judged request with the reply planned for it. The dialect's request id header is
 * added here, per request; `asSent` skips it for a reply the mock did not write itself.
 */
export function recordTraffic(
  judged: Judged,
  decision: Decision,
  planned: WireReply,
  asSent = false,
): WireReply {
  const { arrival, state } = judged;
  const wire = asSent
    ? planned
    : withRequestId(planned, judged.ctx.dialect, state.requestIdPrefix, arrival.seq);
  const replyHeaders = sentHeaders(wire);
  state.recorder.addTraffic(
    trafficLine({
      seq: arrival.seq,
      receivedAt: arrival.receivedAt,
      listener: state.listener,
      raw: judged.raw,
      route: judged.route,
      facts: judged.facts,
      model: judged.model,
      stream: judged.stream,
      reply: decision.reply,
      replyHeaders,
      replyBytes: replyBytes(
        wire.frames,
        decision.reply.staged
          ? { contentEncoding: headerValue(replyHeaders, "content-encoding") }
          : undefined,
      ),
    }),
  );
  return wire;
}

/**
 * A staged reply that cannot be rendered (e.g. stream-plan chunks that do not join to the
 * text) still answers, and the record says why.
 */
async function renderErrorReply(judged: Judged, error: unknown): Promise<WireReply> {
  const decision = errorDecision(
    500,
    "mock-render-error",
    `gatecheck mock: ${(error as Error).message}`,
  );
  return recordTraffic(judged, decision, await planReply(decision.spec, judged.ctx));
}

async function renderLater(
  judged: Judged,
  decision: Decision,
  plan: typeof planReply = planReply,
): Promise<WireReply> {
  let wire: WireReply;
  try {
    wire = await plan(decision.spec, judged.ctx, decision.body);
  } catch (error) {
    return renderErrorReply(judged, error);
  }
  return recordTraffic(judged, decision, wire);
}

/**
 * Judge, record, and plan the reply of a request that has been read. The plan comes back
 * at once when it needs no wait (a default or staged reply: almost every request), so the
 * listener answers in the tick the body ended; a promise only when rendering needs one.
 */
export function answerTraffic(
  raw: RawRequest,
  arrival: Arrival,
  state: TrafficState,
): WireReply | Promise<WireReply> {
  const judged = judgeRequest(raw, arrival, state);
  const { route, facts, model, ctx } = judged;
  let decision: Decision;
  let now: WireReply | undefined;
  try {
    // Past the body limit nothing was kept, so there is nothing to match a nonce in.
    decision = decide(raw, route, facts, facts?.text ?? "", model, state);
    // A staged body whose render holds the loop long is rendered off the request path.
    if (decision.reply.staged && isHeavyReply(decision.spec)) {
      return renderLater(judged, decision, planHeavyReply);
    }
    now = planReplyNow(decision.spec, ctx, decision.body);
  } catch (error) {
    return renderErrorReply(judged, error);
  }
  return now ? recordTraffic(judged, decision, now) : renderLater(judged, decision);
}

/** What a request is, read off it once: route, body facts, model, stream, reply context. */
export function judgeRequest(raw: RawRequest, arrival: Arrival, state: TrafficState): Judged {
  const route = routeFacts(raw.path, state.prefix, raw.headers);
  const facts = raw.bodyTruncated
    ? undefined
    : bodyFacts(raw.body, headerValue(raw.headers, "content-encoding"));
  const model = requestModel(route, facts?.json);
  // The provider's answer to this request variant: its form, and for a stream its usage.
  const row = route.kind === "generate" ? replyFormFor(route, raw.query, facts?.json) : undefined;
  const stream = row ? isStreamForm(row.form) : wantsStream(route, facts?.json);
  const form = row?.form ?? (stream ? "sse" : "json");
  const usage = row?.usage;
  const ctx: ReplyContext = {
    dialect: route.answerDialect,
    stream,
    form,
    usage,
    errorInArray: row?.errorBody?.form === "array",
    requestHeaders: raw.headers,
    defaultReply: { model, stream, form, ...(usage === undefined ? {} : { usage }) },
  };
  return { arrival, state, raw, route, facts, model, stream, ctx };
}
