/** The five wire dialects gatecheck speaks, by the names used everywhere (CLI, database, exchange files). */
export const DIALECTS = [
  "openai-chat",
  "openai-responses",
  "anthropic-messages",
  "gemini",
  "ollama",
] as const;

export type Dialect = (typeof DIALECTS)[number];

/** Dialects a gateway can be called in (its ingress). Gemini and Ollama are backend-only here. */
export const CLIENT_DIALECTS = ["anthropic-messages", "openai-chat", "openai-responses"] as const;

export type ClientDialect = (typeof CLIENT_DIALECTS)[number];

export function isDialect(value: unknown): value is Dialect {
  return typeof value === "string" && (DIALECTS as readonly string[]).includes(value);
}

export function isClientDialect(value: unknown): value is ClientDialect {
  return typeof value === "string" && (CLIENT_DIALECTS as readonly string[]).includes(value);
}

export type Mode = "stream" | "non-stream";
