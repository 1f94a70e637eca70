/**
 * Three synthetic gateways the corpus is checked against. Each takes the client request a
 * probe builds and the upstream steps it stages, and gives what a gateway would have
 * forwarded and what it would have answered:
 * - carry-all: reads the client request and writes it in the backend dialect with the
 *   dialect writers; strips client credentials; reads the upstream reply and writes it
 *   back in the client dialect (stream faults kept).
 * All three retry 429/5xx steps of a staged sequence: they differ in what they carry.
 * - carry-nothing: forwards only the model and the nonce text; answers a bare "OK".
 * - leak-all: carry-all plus everything a careless gateway adds: client credentials in
 *   headers, body and query, an empty text block, `required: []` in schemas, cache_control
 *   on every block, a provider prefix on the model, and a doubled `/v1` in the path.
 */

import type { CanonicalReply, CanonicalRequest, Part } from "../../dialects/canonical.ts";
import { isCredentialHeader } from "../../dialects/credentials.ts";
import { type ClientDialect, DIALECTS, type Dialect, type Mode } from "../../dialects/dialect.ts";
import { isRecord, type JsonRecord } from "../../dialects/json.ts";
import { dialectModule } from "../../dialects/registry.ts";
import {
  encodeEvents,
  readReply,
  type StreamPlan,
  writeError,
  writeReply,
  writeReplyEvents,
} from "../../dialects/reply.ts";
import { readRequest, requestPath, writeRequestBody } from "../../dialects/request.ts";
import type { BuiltRequest } from "../corpus/build.ts";
import type { UpstreamStep } from "../corpus/probe.ts";
import { type RenderedReply, renderStep } from "./render-upstream.ts";

export const TRANSLATIONS = ["carry-all", "carry-nothing", "leak-all"] as const;
export type TranslationName = (typeof TRANSLATIONS)[number];

export interface TranslationInput {
  client: ClientDialect;
  backend: Dialect;
  mode: Mode;
  request: BuiltRequest;
  nonce: string;
  steps: readonly UpstreamStep[];
}

export interface ForwardedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: JsonRecord;
}

export interface Translated {
  forwarded: ForwardedRequest[];
  upstreamReply?: RenderedReply;
  clientResponse?: RenderedReply;
}

/** Body keys that carry a client credential; a correct gateway never forwards them. */
const BODY_CREDENTIAL_KEYS = ["api_key", "extra_headers"] as const;
/** Headers that belong to one hop, never forwarded as is. */
const HOP_HEADERS = new Set(["host", "content-length", "connection", "transfer-encoding"]);
const RETRYABLE = new Set([429, 500, 502, 503, 529]);

function withoutCredentials(body: JsonRecord): JsonRecord {
  const out = { ...body };
  for (const key of BODY_CREDENTIAL_KEYS) delete out[key];
  return out;
}

/** Per backend: the own-header prefixes of the other providers' dialects. */
const FOREIGN_PREFIXES = Object.fromEntries(
  DIALECTS.map((backend) => {
    const own = dialectModule(backend).ownHeaderPrefix;
    const others = DIALECTS.map((d) => dialectModule(d).ownHeaderPrefix).filter(
      (p): p is string => p !== undefined && p !== own,
    );
    return [backend, [...new Set(others)]];
  }),
) as Record<Dialect, string[]>;

/** End-to-end client headers: no credentials, no hop headers; a provider's own headers
 * (`anthropic-*`) only to its dialect. */
function passedHeaders(headers: Record<string, string>, backend: Dialect): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (isCredentialHeader(lower) || HOP_HEADERS.has(lower)) continue;
    if (FOREIGN_PREFIXES[backend].some((prefix) => lower.startsWith(prefix))) continue;
    out[lower] = value;
  }
  return out;
}

/**
 * Serve the staged steps to `forward`, retrying retryable errors the way a good gateway
 * does. All three translations retry: they differ in what they carry, not in persistence.
 */
function serve(
  input: TranslationInput,
  forward: ForwardedRequest,
): { forwarded: ForwardedRequest[]; upstream?: RenderedReply } {
  const forwarded: ForwardedRequest[] = [];
  let upstream: RenderedReply | undefined;
  for (const step of input.steps) {
    forwarded.push(forward);
    upstream = renderStep(step, input.backend, input.mode);
    if (!upstream || !RETRYABLE.has(upstream.status)) break;
  }
  return upstream ? { forwarded, upstream } : { forwarded };
}

/** The stream plan that reproduces an upstream stream's faults in another dialect. */
function faultPlan(client: ClientDialect, reply: CanonicalReply): StreamPlan {
  const lifecycle = reply.stream;
  if (!lifecycle) return {};
  if (lifecycle.error) {
    const content = writeReplyEvents(client, reply, { omitTerminal: true }).length;
    const error = lifecycle.error;
    return {
      errorAfter: {
        afterEvents: content,
        message: error.message ?? "",
        ...(error.type !== undefined ? { type: error.type } : {}),
        ...(error.status !== undefined ? { status: error.status } : {}),
      },
    };
  }
  return lifecycle.complete ? {} : { omitTerminal: true };
}

/** The upstream reply, read in the backend dialect and written in the client's. */
function translateReply(input: TranslationInput, upstream: RenderedReply): RenderedReply {
  const reply = readReply(input.backend, upstream, input.mode);
  if (reply.error && !reply.stream?.error) {
    const written = writeError(input.client, {
      status: reply.error.status ?? upstream.status,
      message: reply.error.message ?? "",
      ...(reply.error.type !== undefined ? { type: reply.error.type } : {}),
    });
    return written;
  }
  // The backend's own spelling of the stop reason and its unmapped keys mean nothing in the
  // client dialect: the writer must derive both from the canonical values.
  const { rawStopReason: _raw, extras: _extras, ...meaning } = reply;
  return renderClientReply(
    input.client,
    input.mode,
    { ...meaning, extras: {}, dialect: input.client },
    faultPlan(input.client, reply),
  );
}

function renderClientReply(
  client: ClientDialect,
  mode: Mode,
  reply: CanonicalReply,
  plan: StreamPlan,
): RenderedReply {
  if (mode === "non-stream") {
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(writeReply(client, reply)),
    };
  }
  const { stream: _lifecycle, ...content } = reply;
  const events = writeReplyEvents(client, content, plan);
  return {
    status: 200,
    headers: { "content-type": "text/event-stream" },
    body: encodeEvents(client, events),
  };
}

function carryAll(input: TranslationInput): Translated {
  const { request, backend } = input;
  const canonical = readRequest(input.client, withoutCredentials(request.body), {
    path: request.path,
  });
  const forward: ForwardedRequest = {
    method: "POST",
    path: requestPath(backend, canonical),
    headers: { "content-type": "application/json", ...passedHeaders(request.headers, backend) },
    body: writeRequestBody(backend, canonical),
  };
  const { forwarded, upstream } = serve(input, forward);
  const out: Translated = { forwarded };
  if (upstream) {
    out.upstreamReply = upstream;
    out.clientResponse = translateReply(input, upstream);
  }
  return out;
}

/** The first user text of the client request (it carries the nonce). */
function nonceText(canonical: CanonicalRequest, nonce: string): string {
  for (const message of canonical.messages) {
    for (const part of message.parts) {
      if (part.type === "text" && part.text.includes(nonce)) return part.text;
    }
  }
  return nonce;
}

function carryNothing(input: TranslationInput): Translated {
  const client = readRequest(input.client, input.request.body, { path: input.request.path });
  const bare: CanonicalRequest = {
    dialect: input.client,
    system: [],
    messages: [{ role: "user", parts: [{ type: "text", text: nonceText(client, input.nonce) }] }],
    tools: [],
    sampling: {},
    extras: {},
    ...(client.model !== undefined ? { model: client.model } : {}),
  };
  const forward: ForwardedRequest = {
    method: "POST",
    path: requestPath(input.backend, bare),
    headers: { "content-type": "application/json" },
    body: writeRequestBody(input.backend, bare),
  };
  const { forwarded, upstream } = serve(input, forward);
  const okReply: CanonicalReply = {
    dialect: input.client,
    parts: [{ type: "text", text: "OK" }],
    extras: {},
  };
  const out: Translated = {
    forwarded,
    clientResponse: renderClientReply(input.client, input.mode, okReply, {}),
  };
  if (upstream) out.upstreamReply = upstream;
  return out;
}

const CACHE = { type: "ephemeral", raw: { type: "ephemeral" } };

/** The content a careless gateway invents, applied to the canonical request. */
function invent(request: CanonicalRequest): CanonicalRequest {
  const cached = (part: Part): Part =>
    part.type === "text" || part.type === "image" || part.type === "document"
      ? { ...part, cache: part.cache ?? CACHE }
      : part;
  // An empty text block at the start of the first message and before every tool call.
  const messages = request.messages.map((m, i) => {
    const calls = m.parts.some((p) => p.type === "tool-call");
    const empty = i === 0 || calls ? [{ type: "text" as const, text: "" }] : [];
    return { ...m, parts: [...empty, ...m.parts.map(cached)] };
  });
  const tools = request.tools.map((tool) => ({
    ...tool,
    schema: isRecord(tool.schema) ? { required: [], ...tool.schema, $defs: {} } : tool.schema,
    cache: tool.cache ?? CACHE,
  }));
  return {
    ...request,
    model: `leak-all/${request.model ?? ""}`,
    system: request.system.map(cached),
    messages,
    tools,
    cache: request.cache ?? CACHE,
  };
}

function leakAll(input: TranslationInput): Translated {
  const { request, backend } = input;
  const canonical = invent(readRequest(input.client, request.body, { path: request.path }));
  const body = writeRequestBody(backend, canonical);
  for (const key of BODY_CREDENTIAL_KEYS) {
    if (key in request.body) body[key] = request.body[key];
  }
  const extra = isRecord(request.body.extra_headers) ? request.body.extra_headers : {};
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = String(value);
  const query = request.path.includes("?") ? request.path.slice(request.path.indexOf("?")) : "";
  const forward: ForwardedRequest = {
    method: "POST",
    path: `/v1${requestPath(backend, canonical).split("?")[0]}${query}`,
    headers,
    body,
  };
  const { forwarded, upstream } = serve(input, forward);
  const out: Translated = { forwarded };
  if (upstream) {
    out.upstreamReply = upstream;
    out.clientResponse = translateReply(input, upstream);
  }
  return out;
}

export const TRANSLATE: Record<TranslationName, (input: TranslationInput) => Translated> = {
  "carry-all": carryAll,
  "carry-nothing": carryNothing,
  "leak-all": leakAll,
};
