/**
 * What gatecheck knows of one wire dialect, in one object: its routes and framing, what a
 * request must carry, its field table, its readers and writers of requests, replies, streams
 * and error bodies, its stop-reason round trip, and the traits the lens and the mock branch
 * on. `dialects/<d>/index.ts` builds one per dialect; `registry.ts` holds the five, and no
 * code outside `dialects/` tests a dialect by its name: it asks the module.
 *
 * Every member is required, so a dialect module missing a route or a trait does not compile
 * (dialect-module.test.ts holds that).
 */
import type { CanonicalReply, CanonicalRequest, ReplyError, StopReason } from "./canonical.ts";
import type { Dialect } from "./dialect.ts";
import type { FieldTable } from "./field-table.ts";
import type { JsonRecord } from "./json.ts";
import type { NotFoundReply, ReplyFormRow } from "./reply-forms.ts";
import type { StreamReader } from "./reply-parts.ts";
import type { PathMatch } from "./route-match.ts";
import type { Framing, StreamEvent, WrittenEvents } from "./sse.ts";
import type { StreamPlan } from "./stream-plan.ts";

export interface DialectRoutes {
  /** The generation endpoint for a model, non-stream. */
  generate(model: string): string;
  /** The generation endpoint when streaming (Gemini has its own method and `?alt=sse`). */
  generateStream(model: string): string;
  /** The model-list endpoint. */
  models: string;
  /** Which endpoint of this dialect a request path (query and mount prefix cut off) is. */
  match(path: string): PathMatch | undefined;
  /** How the dialect's streams are framed on the wire. */
  framing: Framing;
  /** A path that looks like this dialect's though no route matches it (for an error's shape). */
  looksLike?: RegExp;
}

/** The provider whose API a dialect is: model lists and mock content are kept per provider. */
export type Provider = "openai" | "anthropic" | "google" | "ollama";

/**
 * What the lens and the mock branch on. Each trait is a fact of the provider's reference,
 * cited where the module sets it.
 */
export interface DialectTraits {
  /** Whether a request that says nothing about streaming streams (Ollama's /api/chat does). */
  streamsByDefault: boolean;
  /** Whether the server reads a request body as JSON only when its content type says so, or
   * whatever it says (Ollama's gin ShouldBindJSON). */
  bodyContentType: "json" | "any";
  /** Whether a stream's end reports usage always, or only when the request asks (Chat's
   * `stream_options.include_usage`). */
  streamUsage: "always" | "when-asked";
  /** Whether the system prompt sits only ahead of the conversation (Anthropic `system`,
   * Gemini `systemInstruction`), so a system message elsewhere has no place of its own. */
  systemPrompt: "top-level" | "in-conversation";
  /** What an empty text block is to the provider: refused (Anthropic, Gemini), allowed but never
   * needed (Chat, whose assistant `content` is optional beside `tool_calls`; Responses), or the
   * dialect's own spelling of "no text" (Ollama writes `content` on every message). */
  emptyText: "rejected" | "optional" | "spelling";
  /** How a tool result names its call: by the call's id, or by the function's name (Gemini's
   * `functionResponse.name`, Ollama's `tool_name`), with the page that says so. The one table
   * of links: the lens's result judge and the loop judges read it. */
  toolResultLink: { by: "id" | "name"; see: string };
  /** The form a tool call's id must have, where the reference gives one (Anthropic's
   * `tool_use.id`); undefined where an id is any string. */
  toolCallId: RegExp | undefined;
  /** How tool output travels: as content, or inside an object (Gemini's
   * `functionResponse.response`). */
  toolOutput: "content" | "object";
  /** The schema language of tool parameters: JSON Schema, or Gemini's OpenAPI subset. */
  toolSchema: "json-schema" | "openapi-subset";
  /** Whether private reasoning travels as one item holding its summary, its text and its
   * encrypted payload (Responses' reasoning item), rather than as thinking blocks whose opaque
   * payload is a redacted block of its own. */
  reasoningItems: boolean;
  /** Whether the dialect has a developer role apart from system (OpenAI's instruction tiers). */
  developerRole: boolean;
}

export interface RequestCodec {
  /** The request body as the canonical model; the path carries Gemini's model and stream. */
  read(body: JsonRecord, context: { path?: string }): CanonicalRequest;
  /** The canonical request as a body; `same`: read from this dialect (extras written back). */
  write(request: CanonicalRequest, same: boolean): JsonRecord;
  /** Prefixes the body's first user text in place (where a probe's nonce goes); false when
   * the body has none. */
  prefixFirstUserText(body: JsonRecord, prefix: string): boolean;
  /**
   * Credentials the client sends for the provider to present elsewhere, as part of a request
   * value the reader models (an MCP server's OAuth token): the records of `body` that hold
   * them and their keys. The lens judges them by value with their attribute, never as client
   * credentials (docs/lens.md, "A credential meant for the provider is a value").
   */
  valueCredentials?(body: JsonRecord): ValueCredentials[];
}

/** A record of a request body and its keys whose string values are credentials meant for the provider. */
export interface ValueCredentials {
  holder: JsonRecord;
  keys: readonly string[];
}

export interface ReplyCodec {
  /** A 2xx JSON body, parsed. */
  read(body: unknown): CanonicalReply;
  /** A reader of the dialect's stream events. */
  streamReader(): StreamReader;
  /** The error in a parsed body, in the dialect's shape or the `error`-as-string variant. */
  readError(body: unknown): Omit<ReplyError, "status" | "raw"> | undefined;
  /** The JSON body of a non-streamed reply, exactly as the provider sends it. */
  write(reply: CanonicalReply): JsonRecord;
  /** The stream events of a reply, cut by the plan. */
  events(reply: CanonicalReply, plan: StreamPlan): WrittenEvents;
  /** An error event mid-stream, in the dialect's shape. */
  errorEvent(error: ReplyError, index: number, plan: StreamPlan): StreamEvent;
  /** The dialect's error object for a status. */
  errorObject(status: number, message: string, type?: string): JsonRecord;
  /** A keep-alive: Anthropic's documented `ping` event; a comment elsewhere. */
  ping(plan: StreamPlan): StreamEvent;
  /** The model-list body listing `ids`. */
  modelList(ids: readonly string[]): JsonRecord;
}

/** The request id header a provider puts on every reply, and its value's form. */
export interface RequestIdSpec {
  header: string;
  format(hex32: string): string;
}

export interface DialectModule {
  readonly name: Dialect;
  readonly provider: Provider;
  /** The provider's reference for the dialect's generate endpoint. */
  readonly see: string;
  readonly routes: DialectRoutes;
  /** Content types of a JSON reply and of a stream. */
  readonly contentTypes: { readonly json: string; readonly stream: string };
  /** Headers every request in this dialect carries (Anthropic's API version). */
  readonly requiredHeaders: Readonly<Record<string, string>>;
  /** How a client presents its key: the header, and its scheme where it has one. */
  readonly auth: { readonly header: string; readonly scheme?: "Bearer" };
  /** The prefix of the provider's own headers (`anthropic-`), which only its dialect carries. */
  readonly ownHeaderPrefix: string | undefined;
  /** Headers only this dialect's clients send, which tell a request's dialect apart. */
  readonly identifyingHeaders: readonly string[];
  /** What the provider answers a path it does not serve (reply-forms.ts `NotFoundReply`). */
  readonly notFound: NotFoundReply;
  /** The reply header naming the request, where the provider sends one. */
  readonly requestId: RequestIdSpec | undefined;
  readonly fields: FieldTable;
  /** The form (JSON, SSE, NDJSON, JSON array) each documented request variant is answered
   * in, a reference per row (reply-forms.ts); the last row answers any other request. */
  readonly replyForms: readonly ReplyFormRow[];
  readonly request: RequestCodec;
  readonly reply: ReplyCodec;
  /** The canonical stop reason a faithful client of this dialect reads for `upstream`: the
   * reason written in this dialect and read back. */
  stopRoundTrip(upstream: StopReason, hasToolCalls: boolean): StopReason;
  readonly traits: DialectTraits;
}
