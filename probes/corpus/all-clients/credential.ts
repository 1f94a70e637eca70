/**
 * Credentials, inverted: clean means the client's credential did NOT reach the backend.
 * Each place carries its own canary (canaries.ts), so a leak names exactly where it came
 * from. A gateway that uses one of these places for its own key must say so in its route;
 * the sweep then reports that cell not-run rather than judging the gateway's own key.
 * @see https://platform.openai.com/docs/api-reference/authentication
 * @see https://docs.anthropic.com/en/api/overview#authentication
 * @see https://ai.google.dev/gemini-api/docs/api-key
 */
import { CANARIES } from "../canaries.ts";
import { BOTH_MODES } from "../shared.ts";
import type { ProbeTemplate } from "./expand.ts";

export const credentialTemplates: ProbeTemplate[] = [
  {
    slug: "credential-authorization",
    axis: "credential",
    field: "credentials.header.authorization",
    headers: { authorization: `Bearer ${CANARIES.authorization}` },
    modes: BOTH_MODES,
    severity: "critical",
    note: "the client's bearer token appears nowhere in the forwarded headers, query or body",
  },
  {
    slug: "credential-x-api-key",
    axis: "credential",
    field: "credentials.header.x-api-key",
    headers: { "x-api-key": CANARIES.xApiKey },
    modes: BOTH_MODES,
    severity: "critical",
    note: "the client's x-api-key appears nowhere upstream",
  },
  {
    slug: "credential-api-key",
    axis: "credential",
    field: "credentials.header.api-key",
    headers: { "api-key": CANARIES.azureApiKey },
    modes: BOTH_MODES,
    severity: "critical",
    note: "the client's Azure-style api-key appears nowhere upstream",
  },
  {
    slug: "credential-x-goog-api-key",
    axis: "credential",
    field: "credentials.header.x-goog-api-key",
    headers: { "x-goog-api-key": CANARIES.googApiKey },
    modes: BOTH_MODES,
    severity: "critical",
    note: "the client's x-goog-api-key appears nowhere upstream",
  },
  {
    slug: "credential-openai-organization",
    axis: "credential",
    field: "credentials.header.openai-organization",
    headers: { "openai-organization": CANARIES.organization },
    modes: BOTH_MODES,
    severity: "high",
    note: "the client's organization id is not forwarded (it bills the caller's org, not the gateway's)",
  },
  {
    slug: "credential-openai-project",
    axis: "credential",
    field: "credentials.header.openai-project",
    headers: { "openai-project": CANARIES.project },
    modes: BOTH_MODES,
    severity: "high",
    note: "the client's project id is not forwarded",
  },
  {
    slug: "credential-body-api-key",
    axis: "credential",
    field: "credentials.body.api_key",
    request: { api_key: CANARIES.bodyApiKey },
    modes: BOTH_MODES,
    severity: "critical",
    note: "a body api_key is stripped before forwarding, not passed on in the JSON",
  },
  {
    slug: "credential-body-extra-headers",
    axis: "credential",
    field: "credentials.body.extra_headers.x-api-key",
    request: { extra_headers: { "x-api-key": CANARIES.extraHeadersKey } },
    modes: BOTH_MODES,
    severity: "critical",
    note: "a key inside body extra_headers reaches neither the forwarded headers nor the body",
  },
  {
    slug: "credential-query-key",
    axis: "credential",
    field: "credentials.query.key",
    query: { key: CANARIES.queryKey },
    modes: BOTH_MODES,
    severity: "critical",
    note: "?key= on the client URL reaches neither the forwarded query nor headers nor body",
  },
];
