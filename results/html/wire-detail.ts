/**
 * The bytes behind one cell, as the detail panel shows them: the client request, what the
 * mock received (the forwarded requests), what the mock answered (the upstream reply) and
 * what the client got back. The attempt's exchange was checked against the wire vocabulary's
 * schema when it was read (results/stored-exchange.ts), so each pane only lays it out.
 */
import { gunzipSync } from "node:zlib";
import { type Bytes, bytesBuffer } from "../../dialects/wire/bytes.ts";
import type { WireExchange } from "../../dialects/wire/exchange.ts";
import type { WireReply, WireRequest } from "../../dialects/wire/messages.ts";
import { clientSdkSchema } from "../client-sdk-section.ts";

/** Bodies longer than this are cut in the page, with a note giving the full size. */
export const MAX_PANE_CHARS = 12_000;

export interface WirePanes {
  clientRequest: string;
  forwarded: string;
  upstreamReply: string;
  clientResponse: string;
}

export interface AttemptWire {
  exchange: WireExchange;
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

export function wirePanes(attempt: AttemptWire): WirePanes {
  const { exchange } = attempt;
  const forwarded = exchange.forwarded;
  return {
    clientRequest: exchange.clientRequest
      ? requestPane(exchange.clientRequest)
      : "(the client side was not recorded)",
    forwarded:
      forwarded === undefined
        ? "(not recorded)"
        : forwarded.length === 0
          ? "(the mock recorded no request carrying this attempt's nonce: nothing was forwarded)"
          : forwarded
              .map((r, i) => {
                const head =
                  forwarded.length > 1
                    ? `--- forwarded request ${i + 1} of ${forwarded.length} ---\n`
                    : "";
                return head + requestPane(r);
              })
              .join("\n\n"),
    upstreamReply: exchange.upstreamReply
      ? replyPane(exchange.upstreamReply)
      : "(no upstream reply recorded: the mock answered nothing for this nonce)",
    clientResponse: clientResponsePane(exchange) + sdkNote(attempt.clientSdk),
  };
}

/** A body's text for reading: UTF-8 as it is, other bytes as a client library would read them. */
function bodyText(body: Bytes, headers: readonly [string, string][]): string {
  return body.encoding === "utf8" ? body.data : decodeBody(bytesBuffer(body), headers);
}

function requestPane(r: WireRequest): string {
  return message(`${r.method} ${r.path}`, r.headers, prettyBody(bodyText(r.body, r.headers)));
}

function replyPane(reply: WireReply): string {
  return message(
    `HTTP ${reply.status}`,
    reply.headers,
    prettyBody(bodyText(reply.body, reply.headers)),
  );
}

function clientResponsePane(exchange: WireExchange): string {
  const response = exchange.clientResponse;
  if (!response) return `(no response: ${exchange.clientError ?? "not recorded"})`;
  const tail =
    exchange.clientError !== undefined
      ? `\n\n(transport error after headers: ${exchange.clientError})`
      : "";
  return replyPane(response) + tail;
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
