/**
 * The bytes behind one cell, as the detail panel shows them: the client request, what the
 * mock received (the forwarded request), what the mock answered (the upstream reply) and
 * what the client got back. Stored attempts are read through lenient zod schemas: a record
 * of an unexpected shape shows what is there and says what was missing, never throws.
 */
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import { clientSdkSchema } from "../client-sdk-section.ts";

/** Bodies longer than this are cut in the page, with a note giving the full size. */
export const MAX_PANE_CHARS = 12_000;

export interface WirePanes {
  clientRequest: string;
  forwarded: string;
  upstreamReply: string;
  clientResponse: string;
}

const headerPairs = z.array(z.tuple([z.string(), z.string()])).catch([]);

const clientRequestSchema = z.looseObject({
  method: z.string().catch("POST"),
  path: z.string().catch("?"),
  headers: headerPairs,
  body: z.unknown(),
});

const replySchema = z.looseObject({
  status: z.number(),
  headers: headerPairs.optional(),
  body: z.string().optional(),
  bodyEncoding: z.enum(["utf8", "base64"]).optional(),
});

const forwardedSchema = z.looseObject({
  method: z.string().catch("POST"),
  path: z.string().catch("?"),
  query: z.string().catch(""),
  headers: headerPairs,
  rawBody: z.string().catch(""),
  bodyEncoding: z.enum(["utf8", "base64"]).catch("utf8"),
  reply: replySchema.optional(),
});

const clientResponseSchema = z.looseObject({
  status: z.number(),
  headers: headerPairs,
  bodyBase64: z.string().catch(""),
  transportError: z.string().optional(),
});

export interface AttemptWire {
  clientRequest: unknown;
  forwarded: unknown;
  clientResponse: unknown;
  /** What the client dialect's official SDK made of the response (sweep/client-sdk). */
  clientSdk?: unknown;
}

/** The SDK's reading, under the client response: what an agent's code would have received. */
function sdkNote(value: unknown): string {
  if (value === undefined || value === null) return "";
  const r = clientSdkSchema.safeParse(value);
  if (!r.success) return "\n\n--- official SDK: unreadable record ---";
  const { view, findings, disagreements } = r.data;
  const lines = [
    "",
    "",
    `--- official SDK: ${view?.accepted ? "accepted" : `refused${view?.error ? `: ${view.error}` : ""}`} ---`,
    ...findings.map((f) => `finding: ${f}`),
    ...disagreements.map((d) => `SDK ≠ lens (rig problem to look at): ${d}`),
  ];
  return lines.join("\n");
}

/** Built once: building a zod schema cost more than the parse it runs (~60 µs a cell, cold). */
const forwardedListSchema = z.array(z.unknown()).catch([]);

export function wirePanes(attempt: AttemptWire): WirePanes {
  const forwarded = forwardedListSchema.parse(attempt.forwarded);
  const records = forwarded.map((r) => forwardedSchema.safeParse(r));
  const parsed = records.flatMap((r) => (r.success ? [r.data] : []));
  const answered = [...parsed].reverse().find((r) => r.reply !== undefined);
  return {
    clientRequest: clientRequestPane(attempt.clientRequest),
    forwarded:
      forwarded.length === 0
        ? "(the mock recorded no request carrying this attempt's nonce: nothing was forwarded)"
        : records
            .map((r, i) => {
              const head =
                forwarded.length > 1
                  ? `--- forwarded request ${i + 1} of ${forwarded.length} ---\n`
                  : "";
              return (
                head +
                (r.success
                  ? forwardedPane(r.data)
                  : `(unreadable record: ${r.error.issues[0]?.message ?? "bad shape"})`)
              );
            })
            .join("\n\n"),
    upstreamReply: answered?.reply
      ? replyPane(answered.reply)
      : "(no upstream reply recorded: the mock answered nothing for this nonce)",
    clientResponse: clientResponsePane(attempt.clientResponse) + sdkNote(attempt.clientSdk),
  };
}

function clientRequestPane(value: unknown): string {
  const r = clientRequestSchema.safeParse(value);
  if (!r.success)
    return `(unreadable client request: ${r.error.issues[0]?.message ?? "bad shape"})`;
  const body = typeof r.data.body === "string" ? r.data.body : JSON.stringify(r.data.body, null, 2);
  return message(`${r.data.method} ${r.data.path}`, r.data.headers, prettyBody(body ?? ""));
}

function forwardedPane(r: z.infer<typeof forwardedSchema>): string {
  const raw =
    r.bodyEncoding === "base64" ? Buffer.from(r.rawBody, "base64").toString("utf8") : r.rawBody;
  return message(
    `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`,
    r.headers,
    prettyBody(raw),
  );
}

function replyPane(reply: z.infer<typeof replySchema>): string {
  const headers = reply.headers ?? [];
  const bytes = Buffer.from(reply.body ?? "", reply.bodyEncoding === "base64" ? "base64" : "utf8");
  return message(`HTTP ${reply.status}`, headers, prettyBody(decodeBody(bytes, headers)));
}

function clientResponsePane(value: unknown): string {
  const r = clientResponseSchema.safeParse(value);
  if (!r.success)
    return `(unreadable client response: ${r.error.issues[0]?.message ?? "bad shape"})`;
  if (r.data.status === 0) return `(no response: ${r.data.transportError ?? "transport failure"})`;
  const bytes = Buffer.from(r.data.bodyBase64, "base64");
  const tail = r.data.transportError
    ? `\n\n(transport error after headers: ${r.data.transportError})`
    : "";
  return message(
    `HTTP ${r.data.status}`,
    r.data.headers,
    prettyBody(decodeBody(bytes, r.data.headers)) + tail,
  );
}

function message(startLine: string, headers: readonly [string, string][], body: string): string {
  const head = [startLine, ...headers.map(([n, v]) => `${n}: ${v}`)].join("\n");
  return truncate(`${head}\n\n${body}`);
}

/** gzip is undone when the headers say so and the bytes really are gzip, as a client would. */
export function decodeBody(bytes: Buffer, headers: readonly [string, string][]): string {
  const encoding = headers.find(([n]) => n.toLowerCase() === "content-encoding")?.[1];
  if (encoding?.toLowerCase() === "gzip" && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return `(gzip, ${bytes.length} bytes on the wire; shown decompressed)\n${gunzipSync(bytes).toString("utf8")}`;
    } catch (error) {
      return `(claims gzip but does not decompress: ${(error as Error).message})\n${bytes.toString("latin1")}`;
    }
  }
  return bytes.toString("utf8");
}

/** JSON bodies are indented for reading; anything else (SSE, NDJSON, HTML) stays byte for byte. */
function prettyBody(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

export function truncate(text: string, max = MAX_PANE_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… [truncated in this page: ${text.length} characters, first ${max} shown; the database keeps all of it]`;
}

/**
 * What to mark in the forwarded bytes: the probe's planted values (`STOPPROBE`, `0.3`) and
 * the last name of the field. The forwarded request is in the backend's dialect, where the
 * key may be spelled differently, so the values are what carry across.
 */
export function highlightTerms(field: string, requestFragment: unknown): string[] {
  const terms = new Set<string>();
  const last = field
    .split(/[.[\]]+/)
    .filter(Boolean)
    .at(-1);
  if (last && last.length >= 3) terms.add(last);
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6 || terms.size > 12) return;
    if (typeof value === "string" && value.length >= 3 && value.length <= 200) terms.add(value);
    else if (typeof value === "number" || typeof value === "boolean") terms.add(String(value));
    else if (Array.isArray(value)) for (const v of value) visit(v, depth + 1);
    else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (depth === 0 && k.length >= 3) terms.add(k);
        visit(v, depth + 1);
      }
    }
  };
  visit(requestFragment, 0);
  // Bare booleans and tiny numbers would mark half the body; keep only distinctive terms.
  return [...terms].filter((t) => !["true", "false", "0", "1"].includes(t));
}
