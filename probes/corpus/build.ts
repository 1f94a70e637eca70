/**
 * From a probe to the exact client request the sweep sends: the client dialect's minimal
 * valid request, the probe's fragment merged in, the nonce planted in the first user text,
 * `stream` set per mode, the probe's headers and query added.
 */
import type { ClientDialect, Mode } from "../../dialects/dialect.ts";
import type { JsonRecord } from "../../dialects/json.ts";
import { isNonce } from "../../dialects/nonce.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { clone, deepMerge } from "./deep-merge.ts";
import { CorpusError, type Probe } from "./probe.ts";

export { isNonce };

/** The words after the nonce in the base request: short, and asking for a short answer. */
export const BASE_PROMPT = "Reply with the single word OK.";

/**
 * Minimal valid request bodies. Anthropic requires `max_tokens` (and the `anthropic-version`
 * header, which its module names); the OpenAI dialects require only model and input.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://platform.openai.com/docs/api-reference/chat/create
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
const BASE_BODY = {
  "anthropic-messages": { max_tokens: 256, messages: [{ role: "user", content: BASE_PROMPT }] },
  "openai-chat": { messages: [{ role: "user", content: BASE_PROMPT }] },
  "openai-responses": { input: BASE_PROMPT },
} as const satisfies Record<ClientDialect, JsonRecord>;

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
  const body = deepMerge(
    { model: options.model, ...clone(BASE_BODY[probe.client]) },
    probe.request,
  );
  if (options.mode === "stream") body.stream = true;
  const module = dialectModule(probe.client);
  if (!module.request.prefixFirstUserText(body, options.nonce)) {
    throw new CorpusError(
      "no-nonce-slot",
      `probe ${probe.id}: its request has no user text to carry the nonce (give the first user message a text part)`,
    );
  }
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...module.requiredHeaders,
    ...probe.headers,
  };
  const route = module.routes;
  const query = probe.query ? new URLSearchParams(probe.query).toString() : "";
  const path = route.generate(options.model) + (query ? `?${query}` : "");
  return { path, headers, body };
}
