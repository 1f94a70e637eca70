/**
 * Record-through: forward one incoming request to a live upstream and relay the response to
 * the client frame by frame as it arrives, while recording both directions as an exchange.
 *
 * - Upstream reads become client writes one to one (a web `ReadableStream` body, one chunk
 *   per socket read, backpressure passed on by pausing the upstream), so stream boundaries and
 *   timing reach the client as the provider made them; nothing is buffered to the end.
 * - Bytes are relayed as they came: a gzip body stays gzip with its `content-encoding`, because
 *   `node:http` (unlike `fetch`) never decodes. Hop-by-hop headers are dropped both ways.
 * - An upstream that fails mid-body fails the client's body too (the relay errors its stream and
 *   the server drops the connection), and the exchange ends `reset` with the frames seen so far.
 */
import { isUtf8 } from "node:buffer";
import { randomUUID } from "node:crypto";
import { Agent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { performance } from "node:perf_hooks";
import { redactBody } from "../../dialects/body-redaction.ts";
import { redactQuery } from "../../dialects/credential-url.ts";
import {
  credentialValuesInJson,
  isCredentialHeader,
  recordedHeaderPairs,
  redactText,
} from "../../dialects/credentials.ts";
import { asRecord, asString, tryParseJson } from "../../dialects/json.ts";
import { dialectOfPath } from "../../dialects/routes.ts";
import { bytesOf } from "../../dialects/wire/bytes.ts";
import { findNonce } from "../nonce.ts";
import { CaptureError } from "./capture-error.ts";
import { CaptureWriter } from "./capture-writer.ts";
import { CAPTURE_FORMAT, type CapturedReply, type EndKind, type Exchange } from "./exchange.ts";
import { endToEndHeaders } from "./hop-by-hop.ts";
import type { IncomingRequestInfo } from "./incoming.ts";

export interface RecordThroughOptions {
  /** Base URL of the live upstream; its path (if any) is prefixed to every request path. */
  upstream: string;
  /** JSONL file the exchanges are appended to. */
  captureFile?: string;
  /** Called with each finished exchange (after it is queued for the file) and its request. */
  onExchange?: (exchange: Exchange, incoming: IncomingRequestInfo) => void;
}

export type RecordThroughHandler = ((incoming: IncomingRequestInfo) => Promise<Response>) & {
  readonly upstream: URL;
  /** Rejects with the first capture-file write error, if any. */
  flush(): Promise<void>;
  /** Close idle upstream connections. */
  close(): void;
};

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export function parseUpstream(upstream: string): URL {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new CaptureError(
      "invalid-upstream",
      `upstream: expected an http(s) URL, got "${upstream}"`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CaptureError(
      "invalid-upstream",
      `upstream: expected http: or https:, got "${url.protocol}"`,
    );
  }
  return url;
}

export function createRecordThrough(options: RecordThroughOptions): RecordThroughHandler {
  const upstream = parseUpstream(options.upstream);
  const writer = options.captureFile ? new CaptureWriter(options.captureFile) : undefined;
  const agent =
    upstream.protocol === "https:"
      ? new HttpsAgent({ keepAlive: true })
      : new Agent({ keepAlive: true });
  const basePath = upstream.pathname.replace(/\/+$/, "");

  const save = (exchange: Exchange, incoming: IncomingRequestInfo) => {
    writer?.append(exchange);
    options.onExchange?.(exchange, incoming);
  };

  const handle = (incoming: IncomingRequestInfo): Promise<Response> => {
    const t0 = performance.now();
    const elapsed = () => Math.round((performance.now() - t0) * 1000) / 1000;
    const base = {
      format: CAPTURE_FORMAT,
      id: randomUUID(),
      startedAt: new Date().toISOString(),
      upstream: upstream.href,
      ...capturedRequest(incoming),
    } as const;
    const target = new URL(upstream.href);
    target.pathname = `${basePath}${incoming.path}`;
    target.search = incoming.query ? `?${incoming.query}` : "";

    return new Promise<Response>((resolve) => {
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(target, {
        method: incoming.method,
        agent,
        headers: upstreamHeaders(incoming, target.host).flat(),
      });
      const onAbort = () => req.destroy(new Error("client went away"));
      incoming.signal?.addEventListener("abort", onAbort, { once: true });

      let responded = false;
      /** The recorder's own answer when the upstream gave none it can relay. */
      const synthesize = (kind: "client-cancelled" | "upstream-unreachable", error: string) => {
        incoming.signal?.removeEventListener("abort", onAbort);
        const status = kind === "client-cancelled" ? 499 : 502;
        const body =
          kind === "client-cancelled"
            ? ""
            : JSON.stringify({
                error: {
                  type: "gatecheck_upstream_unreachable",
                  message: `record-through: ${error}`,
                },
              });
        const at = elapsed();
        const headers: [string, string][] = [["content-type", "application/json"]];
        const frames = body ? [{ at, bytes: Buffer.from(body) }] : [];
        save(
          {
            ...base,
            reply: { ...replyOf(status, headers, at, frames), synthesized: true },
            end: { kind, atMs: at, error },
          },
          incoming,
        );
        resolve(new Response(body || null, { status, headers }));
      };

      req.on("error", (error) => {
        // After a response, failures surface on the response stream instead.
        if (responded) return;
        if (incoming.signal?.aborted) synthesize("client-cancelled", error.message);
        else synthesize("upstream-unreachable", `cannot reach ${upstream.href}: ${error.message}`);
      });

      req.on("response", (res) => {
        responded = true;
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) {
          // Not a status a Response (or the capture format) can carry; nothing is relayed.
          res.destroy();
          synthesize("upstream-unreachable", `upstream answered with status ${status}`);
          return;
        }
        const response = { status, statusText: res.statusMessage || undefined, at: elapsed() };
        // Raw reads on the hot path; encoded once, when the exchange is saved.
        const frames: RawFrame[] = [];
        let ended = false;
        const finish = (kind: EndKind, error?: string) => {
          if (ended) return;
          ended = true;
          incoming.signal?.removeEventListener("abort", onAbort);
          const reply = replyOf(status, capturedHeaders(res), response.at, frames);
          if (response.statusText) reply.statusText = response.statusText;
          save({ ...base, reply, end: { kind, atMs: elapsed(), error } }, incoming);
        };
        const headers = clientHeaders(res);
        if (NULL_BODY_STATUSES.has(response.status) || incoming.method === "HEAD") {
          res.on("data", (chunk: Buffer) => frames.push({ at: elapsed(), bytes: chunk }));
          res.on("end", () => finish("complete"));
          res.on("error", (error) => finish("reset", error.message));
          resolve(new Response(null, { status: response.status, headers }));
          return;
        }
        const body = relayBody(res, frames, elapsed, finish);
        try {
          resolve(
            new Response(body, {
              status: response.status,
              statusText: response.statusText,
              headers,
            }),
          );
        } catch {
          // A reason phrase the Fetch API refuses: the status alone still says it.
          resolve(new Response(body, { status: response.status, headers }));
        }
      });

      req.end(Buffer.from(incoming.body));
    });
  };

  return Object.assign(handle, {
    upstream,
    flush: async () => writer?.flush(),
    close: () => agent.destroy(),
  });
}

interface RawFrame {
  at: number;
  bytes: Buffer;
}

/** The reply as the capture holds it: every byte joined, and each read's time and size. */
function replyOf(
  status: number,
  headers: [string, string][],
  headersAtMs: number,
  frames: readonly RawFrame[],
): CapturedReply {
  return {
    status,
    headers,
    body: bytesOf(Buffer.concat(frames.map((f) => f.bytes))),
    headersAtMs,
    frames: frames.map((f) => ({ atMs: f.at, bytes: f.bytes.length })),
  };
}

/** The upstream response as a stream of its socket reads, recorded as they pass. */
function relayBody(
  res: IncomingMessage,
  frames: RawFrame[],
  elapsed: () => number,
  finish: (kind: EndKind, error?: string) => void,
): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (message: string) => {
          finish("reset", message);
          try {
            controller.error(new Error(`upstream failed mid-body: ${message}`));
          } catch {
            // Already closed or errored.
          }
        };
        res.on("data", (chunk: Buffer) => {
          frames.push({ at: elapsed(), bytes: chunk });
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk));
          if ((controller.desiredSize ?? 0) <= 0) res.pause();
        });
        res.on("end", () => {
          finish("complete");
          if (!cancelled) controller.close();
        });
        res.on("error", (error) => fail(error.message));
        res.on("close", () => {
          if (!res.complete) fail("connection closed before the body was complete");
        });
      },
      pull() {
        res.resume();
      },
      cancel() {
        cancelled = true;
        finish("client-cancelled");
        res.destroy();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 16 }),
  );
}

function upstreamHeaders(incoming: IncomingRequestInfo, host: string): [string, string][] {
  const pairs: [string, string][] = [["Host", host]];
  pairs.push(...endToEndHeaders(incoming.headers, ["host", "content-length"]));
  const hasBody = incoming.body.byteLength > 0 || !["GET", "HEAD"].includes(incoming.method);
  if (hasBody) pairs.push(["Content-Length", String(incoming.body.byteLength)]);
  return pairs;
}

/** Headers for the web Response: end-to-end only; a value `Headers` refuses is left out. */
function clientHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of endToEndHeaders(rawPairs(res.rawHeaders))) {
    try {
      headers.append(name, value);
    } catch {
      // Not a valid header for the Fetch API (e.g. non-Latin-1); the record keeps it.
    }
  }
  return headers;
}

function rawPairs(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] ?? "", raw[i + 1] ?? ""]);
  return pairs;
}

/** The upstream's headers in wire order, lower-case names, credential values redacted. */
function capturedHeaders(res: IncomingMessage): [string, string][] {
  return recordedHeaderPairs(rawPairs(res.rawHeaders));
}

/** The request side, redacted; nonce and model are read before redaction. */
function capturedRequest(
  incoming: IncomingRequestInfo,
): Pick<Exchange, "request" | "nonce" | "model" | "dialect"> {
  const bytes = Buffer.from(incoming.body);
  const headerSecrets = incoming.headers
    .filter(([name]) => isCredentialHeader(name))
    .map(([, value]) => value.replace(/^(Bearer|Basic|Token)\s+/i, ""));
  const route = dialectOfPath(incoming.path);
  const text = isUtf8(bytes) ? bytes.toString("utf8") : undefined;
  const parsed = text === undefined ? undefined : tryParseJson(text);
  const json = parsed?.ok ? parsed.value : undefined;
  const secrets = [...headerSecrets, ...credentialValuesInJson(json)];
  const body =
    text === undefined
      ? {
          data: Buffer.from(redactText(bytes.toString("latin1"), secrets), "latin1").toString(
            "base64",
          ),
          encoding: "base64" as const,
        }
      : { data: redactBody(text, secrets), encoding: "utf8" as const };
  const query = redactQuery(incoming.query, secrets);
  return {
    request: {
      method: incoming.method,
      path: query === "" ? incoming.path : `${incoming.path}?${query}`,
      headers: recordedHeaderPairs(incoming.headers, secrets),
      body,
    },
    nonce: findNonce(text ?? bytes.toString("latin1")),
    model: route?.model ?? asString(asRecord(json)?.model),
    dialect: route?.dialect,
  };
}
