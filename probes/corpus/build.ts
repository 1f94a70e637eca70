/**
 * From a probe to the exact client request the sweep sends: the client dialect's minimal
 * valid request, the probe's fragment merged in, the nonce planted in the first user text,
 * `stream` set per mode, the probe's headers and query added.
 */
import type { ClientDialect, Mode } from "../../dialects/dialect.ts";
import { asArray, asString, isRecord, type JsonRecord } from "../../dialects/json.ts";
import { DIALECT_ROUTES, type DialectRoutes } from "../../dialects/routes.ts";
import { clone, deepMerge } from "./deep-merge.ts";
import { CorpusError, type Probe } from "./probe.ts";

/** `gc-` + 16 lower-case hex: the shape the mock looks for in raw bodies (issue 2). */
export const NONCE_SHAPE = /^gc-[0-9a-f]{16}$/;

export function isNonce(value: string): boolean {
  return NONCE_SHAPE.test(value);
}

/** The words after the nonce in the base request: short, and asking for a short answer. */
export const BASE_PROMPT = "Reply with the single word OK.";

/**
 * Minimal valid requests. Anthropic requires `max_tokens` and the `anthropic-version`
 * header; the OpenAI dialects require only model and input.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://platform.openai.com/docs/api-reference/chat/create
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
const BASE = {
  "anthropic-messages": {
    body: { max_tokens: 256, messages: [{ role: "user", content: BASE_PROMPT }] },
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
  },
  "openai-chat": {
    body: { messages: [{ role: "user", content: BASE_PROMPT }] },
    headers: { "content-type": "application/json" },
  },
  "openai-responses": {
    body: { input: BASE_PROMPT },
    headers: { "content-type": "application/json" },
  },
} as const satisfies Record<ClientDialect, { body: JsonRecord; headers: Record<string, string> }>;

export interface BuildOptions {
  nonce: string;
  mode: Mode;
  model: string;
}

export interface BuiltRequest {
  /** The client dialect's documented path, with the probe's query string if it has one. */
  path: string;
  headers: Record<string, string>;
  body: JsonRecord;
}

export function buildClientRequest(probe: Probe, options: BuildOptions): BuiltRequest {
  if (!isNonce(options.nonce)) {
    throw new CorpusError("invalid-probe", `nonce "${options.nonce}" is not gc- + 16 hex`);
  }
  const base = BASE[probe.client];
  const body = deepMerge({ model: options.model, ...clone(base.body) }, probe.request);
  if (options.mode === "stream") body.stream = true;
  if (!plantNonce(probe.client, body, options.nonce)) {
    throw new CorpusError(
      "no-nonce-slot",
      `probe ${probe.id}: its request has no user text to carry the nonce (give the first user message a text part)`,
    );
  }
  const headers: Record<string, string> = { ...base.headers, ...probe.headers };
  const route: DialectRoutes = DIALECT_ROUTES[probe.client];
  const query = probe.query ? new URLSearchParams(probe.query).toString() : "";
  const path = route.generate(options.model) + (query ? `?${query}` : "");
  return { path, headers, body };
}

/** Prefix the first user text with the nonce, in place. False when there is no user text. */
function plantNonce(client: ClientDialect, body: JsonRecord, nonce: string): boolean {
  if (client === "openai-responses") {
    const input = body.input;
    if (typeof input === "string") {
      body.input = `${nonce} ${input}`;
      return true;
    }
    return plantInMessages(asArray(input), nonce, ["input_text", "text"]);
  }
  return plantInMessages(asArray(body.messages), nonce, ["text"]);
}

function plantInMessages(
  messages: unknown[] | undefined,
  nonce: string,
  textTypes: readonly string[],
): boolean {
  const user = messages?.find(
    (m) => isRecord(m) && m.role === "user" && (m.type === undefined || m.type === "message"),
  );
  if (!isRecord(user)) return false;
  if (typeof user.content === "string") {
    user.content = `${nonce} ${user.content}`;
    return true;
  }
  const part = asArray(user.content)?.find(
    (p) => isRecord(p) && textTypes.includes(String(p.type)) && asString(p.text) !== undefined,
  );
  if (!isRecord(part)) return false;
  part.text = `${nonce} ${String(part.text)}`;
  return true;
}
