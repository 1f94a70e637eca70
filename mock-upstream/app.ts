/**
 * The mock as a Hono app: the control API, then every other request as traffic. Served by
 * @hono/node-server the reply is written straight to the socket (exact write boundaries,
 * resets, hangs); through `app.request` it comes back as a web Response.
 */
import type { RequestListener, ServerResponse } from "node:http";
import { getRequestListener, type HttpBindings, RequestError } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono, type MiddlewareHandler } from "hono";
import { recordExchange } from "./capture/exchange-record.ts";
import { createRecordThrough, installReplay, recordThroughRoute } from "./capture/index.ts";
import { CONTROL_PREFIX, mountControlApi } from "./control-api.ts";
import { controlRefusal } from "./control-guard.ts";
import { recordCutOff } from "./cut-off.ts";
import { hostProblem } from "./host-guard.ts";
import { answerMissingHost, lacksRequiredHost, refuseMissingHost } from "./host-required.ts";
import { MockError } from "./mock-error.ts";
import { recordFramingError } from "./parser-refusal.ts";
import { getPersona } from "./personas/index.ts";
import { DEFAULT_BODY_LIMIT, readNodeRequest } from "./read-request.ts";
import { Recorder, type RecorderLimits } from "./recorder.ts";
import { requestIdPrefix } from "./request-id.ts";
import { StageStore } from "./stage-store.ts";
import { answerTraffic, arrive, handleTraffic, type TrafficState } from "./traffic.ts";
import type { WireReply } from "./wire-plan.ts";
import { toWebResponse, writeAtOnce, writeToNode } from "./wire-writer.ts";

export interface MockAppOptions {
  /** Listener name written on every record. */
  name?: string;
  /** JSONL file the records are appended to. */
  recordFile?: string;
  /** A persona name (see mock-upstream/personas/). */
  persona?: string;
  /** A mount point stripped before routing, e.g. `/api/v1`. */
  prefix?: string;
  /** Bodies over this many bytes are answered 413 (default 32 MiB). */
  bodyLimitBytes?: number;
  /**
   * The JSON of every staged spec waiting at once is bounded by this many bytes (default
   * 64 MiB); staging past it is refused with a 413 (control-api.ts).
   */
  stagedBytesLimit?: number;
  /** Record-through: forward every non-control request to this live upstream (capture/). */
  upstream?: string;
  /** With `upstream`: append each exchange to this JSONL capture file. */
  captureFile?: string;
  /** A capture file served as staged replies that survive reset (capture/). */
  replay?: string;
  /** Multiplies the recorded timings of `replay` (default 1). */
  replayTimeScale?: number;
  /**
   * How many records `records()` and the control API keep in memory (default the newest
   * 100,000, at most 256 MiB of line bytes); older ones are forgotten there, never in the file.
   */
  memoryLimits?: RecorderLimits;
  /**
   * The address the listener is bound to. When it is loopback, control API requests whose
   * `Host` names another address are refused (host-guard.ts); `startMock` sets it.
   */
  listenHost?: string;
}

/** Refuses, as JSON 403, a request whose Host is not the listener's (host-guard.ts). */
function hostGuard(listenHost: string): MiddlewareHandler {
  return async (c, next) => {
    const problem = hostProblem(listenHost, c.req.header("host"));
    if (problem) return c.json({ error: problem }, 403);
    await next();
  };
}

export function createMockState(options: MockAppOptions = {}): TrafficState {
  let persona: TrafficState["persona"];
  if (options.persona !== undefined) {
    persona = getPersona(options.persona);
    if (!persona)
      throw new MockError("unknown-persona", `unknown persona ${JSON.stringify(options.persona)}`);
  }
  const listener = options.name ?? "mock";
  return {
    listener,
    prefix: (options.prefix ?? "").replace(/\/+$/, ""),
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
    recorder: new Recorder(options.recordFile, options.memoryLimits),
    stages: new StageStore(options.stagedBytesLimit),
    requestIdPrefix: requestIdPrefix(),
    cutOff: new WeakMap(),
    ...(persona ? { persona } : {}),
  };
}

export function resetState(state: TrafficState): void {
  state.recorder.clear();
  state.stages.clear();
}

/** The app; pass `state` to share records and staged replies with the caller. */
export function createMockApp(
  options: MockAppOptions = {},
  state = createMockState(options),
): Hono {
  const app = new Hono();
  // An error no route expected answers JSON that says what failed, never a stack trace.
  app.onError((error, c) => c.json({ error: `gatecheck mock: ${error.message}` }, 500));
  const listenHost = options.listenHost;
  // The control API only: traffic is answered whatever Host a gateway sends (some send the
  // provider's name, and the lens judges what they send), and it reads nothing of ours.
  if (listenHost !== undefined) app.use(`${CONTROL_PREFIX}/*`, hostGuard(listenHost));
  // Wherever it listens: a browser page reaches the control API through any address.
  app.use(`${CONTROL_PREFIX}/*`, async (c, next) => {
    const refusal = controlRefusal((name) => c.req.header(name));
    if (refusal) return c.json({ error: refusal.error }, refusal.status);
    await next();
  });
  mountControlApi(app, state, () => resetState(state));
  if (options.replay)
    installReplay(state.stages, options.replay, { timeScale: options.replayTimeScale });
  if (options.upstream) {
    const forward = createRecordThrough({
      upstream: options.upstream,
      captureFile: options.captureFile,
      // Every forwarded exchange is a record too (`--record`), written when it ends.
      onExchange: (exchange, incoming) => recordExchange(state, exchange, incoming),
    });
    app.all("*", recordThroughRoute(forward));
  }
  app.all("*", async (c) => {
    const env = c.env as Partial<HttpBindings> | undefined;
    const source = env?.incoming ? { incoming: env.incoming } : { request: c.req.raw };
    const { wire } = await handleTraffic(source, state);
    // The record's line reaches the file before any byte of the reply leaves (record-file.ts).
    state.recorder.flush();
    if (env?.outgoing) {
      // A failure here is the client going away, or a header Node refuses: end the
      // connection rather than leave the caller hanging.
      const outgoing = env.outgoing;
      writeToNode(outgoing, wire).catch(() => outgoing.destroy());
      return RESPONSE_ALREADY_SENT;
    }
    return toWebResponse(wire);
  });
  return app;
}

/**
 * The Node request listener of a bound mock. Traffic is handled straight on Node's request
 * and response: building a web Request and routing it through Hono cost a third of the
 * mock's time per request, and traffic needs neither (it reads `rawHeaders` and writes the
 * socket itself). The control API, and every request when record-through forwards to an
 * upstream, still go through the Hono app, which answers exactly as under `app.request`.
 */
/**
 * A one-write reply goes out now; anything else (waits, frames) is written by writeToNode.
 * A failure is the client going away, or a header Node refuses: the connection ends.
 */
function sendReply(outgoing: ServerResponse, wire: WireReply): void {
  try {
    if (writeAtOnce(outgoing, wire)) return;
  } catch {
    outgoing.destroy();
    return;
  }
  writeToNode(outgoing, wire).catch(() => outgoing.destroy());
}

export function createMockListener(
  options: MockAppOptions = {},
  state = createMockState(options),
): RequestListener {
  const app = createMockApp(options, state);
  const viaApp = getRequestListener(app.fetch, {
    // Hono builds a URL from Host; an HTTP/1.0 request may come without one (host-required.ts).
    hostname: "localhost",
    // A request it cannot make a URL of (a Host it refuses) gets a 400 that says why.
    errorHandler: (error) =>
      Response.json(
        { error: `gatecheck mock: ${(error as Error).message}` },
        { status: error instanceof RequestError ? 400 : 500 },
      ),
  });
  if (options.upstream) return viaApp;
  return (incoming, outgoing) => {
    // Anything under the control prefix goes to Hono, which routes it exactly as before
    // (including a path that merely starts with the prefix, which is traffic there too).
    if (incoming.url?.startsWith(CONTROL_PREFIX)) {
      if (lacksRequiredHost(incoming)) refuseMissingHost(outgoing);
      else viaApp(incoming, outgoing);
      return;
    }
    const arrival = arrive(state);
    readNodeRequest(incoming, state.bodyLimit, (raw) => {
      const trouble = state.cutOff.get(incoming.socket);
      if (trouble) {
        if (trouble.kind === "timeout") recordCutOff(raw, arrival, state);
        else recordFramingError(raw, arrival, state, trouble);
        return;
      }
      let wire: ReturnType<typeof answerTraffic> | undefined;
      try {
        wire = lacksRequiredHost(incoming)
          ? answerMissingHost(raw, arrival, state)
          : answerTraffic(raw, arrival, state);
      } catch {
        // As in the app's route: a request that cannot be answered ends its connection.
        outgoing.destroy();
        return;
      }
      if (!wire) {
        outgoing.destroy();
        return;
      }
      // Sent once the record's line is in the file (at the end of this turn, with every
      // other record of the turn in one write), so a client never sees a reply whose record
      // a killed mock could lose.
      if (wire instanceof Promise)
        wire.then(
          (w) => state.recorder.afterRecorded(sendReply, outgoing, w),
          () => outgoing.destroy(),
        );
      else state.recorder.afterRecorded(sendReply, outgoing, wire);
    });
  };
}
