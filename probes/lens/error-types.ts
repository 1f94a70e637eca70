/**
 * Error types by meaning. Each dialect names its error classes differently
 * (`rate_limit_error`, `rate_limit_exceeded`, `RESOURCE_EXHAUSTED`); a gateway that maps one
 * to the other's name for the same class preserved it.
 */

/** Families, matched in order against the type string. */
export const ERROR_TYPE_FAMILIES = [
  // @see https://docs.anthropic.com/en/api/errors
  // @see https://platform.openai.com/docs/guides/error-codes
  // @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
  { family: "rate-limit", pattern: /rate_limit|RESOURCE_EXHAUSTED|quota|too_many/i },
  { family: "authentication", pattern: /authentication|UNAUTHENTICATED|invalid_api_key/i },
  { family: "permission", pattern: /permission|PERMISSION_DENIED|billing/i },
  { family: "not-found", pattern: /not_found|NOT_FOUND/i },
  { family: "overloaded", pattern: /overloaded|UNAVAILABLE/i },
  { family: "too-large", pattern: /too_large|context_length/i },
  { family: "timeout", pattern: /timeout|DEADLINE_EXCEEDED/i },
  {
    family: "invalid-request",
    pattern: /invalid|INVALID_ARGUMENT|FAILED_PRECONDITION|bad_request/i,
  },
  { family: "server", pattern: /api_error|server_error|INTERNAL|internal/i },
] as const satisfies readonly { family: string; pattern: RegExp }[];

export function errorFamily(type: string): string {
  return ERROR_TYPE_FAMILIES.find((f) => f.pattern.test(type))?.family ?? type;
}
