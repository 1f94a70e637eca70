/**
 * Credential canaries: one distinct value per place a client credential can ride. Each looks
 * like a real key of its provider (so the mock's key-shape redaction and a gateway's own
 * key handling treat it as one) and carries `GCCANARY` so a human reading a record sees at
 * once that it is ours. A canary found in a forwarded request is a leak of that exact place.
 */
export const CANARIES = {
  /** Client `Authorization: Bearer ...` (OpenAI project-key shape). */
  authorization: "sk-proj-GCCANARYauthorization0001",
  /** Client `x-api-key` (Anthropic key shape). */
  xApiKey: "sk-ant-api03-GCCANARYxapikey00000002",
  /** Client `api-key` (Azure OpenAI: 32 hex characters). */
  azureApiKey: "0cca0a4e0000000000000000000c0003",
  /** Client `x-goog-api-key` (Google AI Studio key shape: AIza + 35). */
  googApiKey: "AIzaSyGCCANARYgoogapikey000000000004",
  /** Client `openai-organization` (an org id: identifies the caller's billing account). */
  organization: "org-GCCANARYorganization0005",
  /** Client `openai-project`. */
  project: "proj_GCCANARYproject00000006",
  /** Body `api_key` (LiteLLM-style per-request key). */
  bodyApiKey: "sk-GCCANARYbodyapikey000000007",
  /** Body `extra_headers` carrying a key (OpenAI SDK option some gateways accept in JSON). */
  extraHeadersKey: "sk-ant-api03-GCCANARYextraheaders0008",
  /** `?key=` on the client URL (Gemini's query credential). */
  queryKey: "AIzaSyGCCANARYquerykey00000000000009",
} as const satisfies Record<string, string>;

/** Every canary value, for the sweep to pass as `secrets` (redaction and leak matching). */
export const CANARY_VALUES: readonly string[] = Object.values(CANARIES);

/** The canaries a probe's request carries (headers, query and body), in a stable order. */
export function canariesOf(parts: {
  headers?: Record<string, string>;
  query?: Record<string, string>;
  request?: unknown;
}): string[] {
  const text = JSON.stringify([parts.headers ?? {}, parts.query ?? {}, parts.request ?? {}]);
  return CANARY_VALUES.filter((value) => text.includes(value));
}
