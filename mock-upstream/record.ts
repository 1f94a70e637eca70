/**
 * One recorded request, as it lands in the JSONL file and in `records()`. Everything here is
 * already redacted: no credential reaches memory that others can read, nor the disk.
 */
import { isUtf8 } from "node:buffer";
import { redactBody, redactParsedBody, redactUnparsedBody } from "../dialects/body-redaction.ts";
import { codingProblem, redactCompressed } from "../dialects/compressed-body.ts";
import type { Dialect } from "../dialects/dialect.ts";
import { tryParseJson } from "../dialects/json.ts";
import { bytesOf } from "../dialects/wire/bytes.ts";
import type { WireReply, WireRequest } from "../dialects/wire/messages.ts";
import { findNonce } from "./nonce.ts";

export type RequestKind = "generate" | "models" | "unknown";

/** How the mock answered a request: the status and what decided it. */
export interface RecordDecision {
  status: number;
  /** True when a staged reply (control API or `stage()`) answered. */
  staged: boolean;
  /** The persona that judged the request, when one is active. */
  persona?: string;
  /** The persona rule that rejected the request, when one did. */
  personaRule?: string;
  /** Why the mock answered as it did when not with a reply: `malformed-json`, `body-too-large`, ... */
  reason?: string;
  /** The id of the staged spec that answered. */
  stagedId?: string;
}

/**
 * A record's reply: the decision, and the reply as planned for the wire in the wire
 * vocabulary (headers, and the body's bytes with all frames joined; gzip stays gzip).
 */
export interface RecordReply extends RecordDecision, WireReply {}

/**
 * One request as the mock received it, in the wire vocabulary (`request`: method, the path
 * with its query, lower-case header pairs in wire order, the body's bytes), what the mock
 * read off it, and its reply. Its zod schema is record-schema.ts.
 */
export type MockRecord = {
  seq: number;
  receivedAt: string;
  listener: string;
  request: WireRequest;
  /** Bytes received; when over the body limit the body is empty and `bodyTruncated` is set. */
  bodyBytes: number;
  bodyTruncated?: boolean;
  dialect?: Dialect;
  kind?: RequestKind;
  nonce?: string;
  /** Gemini carries the model in the path; others in the body. */
  model?: string;
  stream?: boolean;
  reply: RecordReply;
};

export interface RawRequest {
  method: string;
  path: string;
  query: string;
  headers: readonly (readonly [string, string])[];
  body: Buffer;
  bodyBytes: number;
  bodyTruncated: boolean;
}

export interface RequestFacts {
  rawBody: string;
  bodyEncoding: "utf8" | "base64";
  json?: unknown;
  /** Parse failure message when the body is non-empty UTF-8 that is not JSON. */
  jsonError?: string;
  nonce?: string;
  /** The body as text before redaction (latin1 when not UTF-8): staging matches on it. */
  text: string;
}

/**
 * Redacted body facts. A body that is not UTF-8 is redacted through latin1 (byte-exact both
 * ways, and every key shape is ASCII) and then stored as base64; a compressed one
 * (`content-encoding` gzip, deflate or br) through its decompressed text (compressed-body.ts),
 * which is also the JSON judged and the text staging matches on; one that cannot be decoded
 * (zstd, stacked codings, bytes that do not decode) is kept as bytes and its `jsonError` says
 * why. The nonce is looked for in the unredacted text: it is not a secret and redaction could
 * only hide it.
 */
export function bodyFacts(body: Buffer, contentEncoding?: string): RequestFacts {
  if (body.length === 0) return { rawBody: "", bodyEncoding: "utf8", text: "" };
  if (contentEncoding !== undefined) {
    const compressed = redactCompressed(body, contentEncoding, redactBody);
    if (compressed) {
      // Judged through its decoded text, as the provider reads it; kept compressed.
      const bytes = bytesOf(compressed.bytes);
      const parsed = compressed.utf8
        ? tryParseJson(compressed.redacted)
        : { ok: false as const, error: `decoded ${contentEncoding} body is not valid UTF-8` };
      return {
        rawBody: bytes.data,
        bodyEncoding: bytes.encoding,
        ...(parsed.ok ? { json: parsed.value } : { jsonError: parsed.error }),
        nonce: findNonce(compressed.text),
        text: compressed.text,
      };
    }
    const problem = codingProblem(body, contentEncoding);
    if (problem !== undefined) {
      // Kept as bytes, and not judged as JSON: the provider could not read it either.
      const facts: RequestFacts = { ...bodyFacts(body), jsonError: problem };
      delete facts.json;
      return facts;
    }
  }
  if (isUtf8(body)) {
    const text = body.toString("utf8");
    const nonce = findNonce(text);
    // Parsed once: redaction reuses the parse, and only a body it changed is parsed again.
    const first = tryParseJson(text);
    const rawBody = first.ok ? redactParsedBody(text, first.value) : redactUnparsedBody(text);
    const parsed = rawBody === text ? first : tryParseJson(rawBody);
    return parsed.ok
      ? { rawBody, bodyEncoding: "utf8", json: parsed.value, nonce, text }
      : { rawBody, bodyEncoding: "utf8", jsonError: parsed.error, nonce, text };
  }
  const latin1 = body.toString("latin1");
  const redacted = Buffer.from(redactUnparsedBody(latin1), "latin1");
  return {
    rawBody: redacted.toString("base64"),
    bodyEncoding: "base64",
    jsonError: "body is not valid UTF-8",
    nonce: findNonce(latin1),
    text: latin1,
  };
}

/** Pairs from Node's flat `rawHeaders` list. */
export function pairsFromRawHeaders(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] ?? "", raw[i + 1] ?? ""]);
  return pairs;
}

/**
 * The first value of a header, case-insensitive. Names of another length are skipped
 * before lower-casing (header names are ASCII tokens, so case never changes a length):
 * this runs several times per request.
 */
export function headerValue(
  headers: readonly (readonly [string, string])[],
  name: string,
): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of headers) {
    if (k.length === lower.length && k.toLowerCase() === lower) return v;
  }
  return undefined;
}
