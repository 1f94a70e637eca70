/**
 * Where each dialect's endpoints live, as the providers document them. The mock serves
 * these paths; the lens checks a forwarded path against them (a `/v1/v1/...` is mangled).
 */
import type { Dialect } from "./dialect.ts";

export interface DialectRoutes {
  /** The generation endpoint for a model, non-stream. */
  generate(model: string): string;
  /** The generation endpoint when streaming (Gemini has its own method and `?alt=sse`). */
  generateStream(model: string): string;
  /** The model-list endpoint. */
  models: string;
  /** How the dialect's streams are framed on the wire. */
  framing: "sse" | "ndjson";
}

/**
 * @see https://platform.openai.com/docs/api-reference/chat/create
 * @see https://platform.openai.com/docs/api-reference/responses/create
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://ai.google.dev/api/generate-content
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 */
export const DIALECT_ROUTES = {
  "openai-chat": {
    generate: () => "/v1/chat/completions",
    generateStream: () => "/v1/chat/completions",
    models: "/v1/models",
    framing: "sse",
  },
  "openai-responses": {
    generate: () => "/v1/responses",
    generateStream: () => "/v1/responses",
    models: "/v1/models",
    framing: "sse",
  },
  "anthropic-messages": {
    generate: () => "/v1/messages",
    generateStream: () => "/v1/messages",
    models: "/v1/models",
    framing: "sse",
  },
  gemini: {
    generate: (model) => `/v1beta/models/${model}:generateContent`,
    generateStream: (model) => `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
    models: "/v1beta/models",
    framing: "sse",
  },
  ollama: {
    generate: () => "/api/chat",
    generateStream: () => "/api/chat",
    models: "/api/tags",
    framing: "ndjson",
  },
} as const satisfies Record<Dialect, DialectRoutes>;

export interface PathMatch {
  dialect: Dialect;
  kind: "generate" | "models";
  /** Gemini carries the model in the path. */
  model?: string;
  /** Gemini streams through a different method. */
  stream?: boolean;
}

const GEMINI_GENERATE =
  /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/**
 * Which dialect a request path implies. `prefix` is a gateway-specific mount point
 * (`/api/v1`) stripped before matching; the un-versioned `/chat/completions` is accepted
 * because gateways differ in whether they add `/v1`. The models path `/v1/models` is
 * shared by OpenAI and Anthropic; the caller tells them apart by headers.
 */
export function dialectOfPath(path: string, prefix = ""): PathMatch | undefined {
  // The lens asks this for every forwarded request it judges: the query is cut off without
  // split's array, and the fixed paths are tried before the Gemini pattern (they hold no ":",
  // which every Gemini generate path has, so the order changes no answer).
  const query = path.indexOf("?");
  let p = query < 0 ? path : path.slice(0, query);
  if (prefix && p.startsWith(prefix)) p = p.slice(prefix.length) || "/";
  switch (p) {
    case "/v1/chat/completions":
    case "/chat/completions":
      return { dialect: "openai-chat", kind: "generate" };
    case "/v1/responses":
    case "/responses":
      return { dialect: "openai-responses", kind: "generate" };
    case "/v1/messages":
    case "/messages":
      return { dialect: "anthropic-messages", kind: "generate" };
    case "/api/chat":
      return { dialect: "ollama", kind: "generate" };
    case "/v1/models":
    case "/models":
      return { dialect: "openai-chat", kind: "models" };
    case "/v1beta/models":
      return { dialect: "gemini", kind: "models" };
    case "/api/tags":
      return { dialect: "ollama", kind: "models" };
  }
  const gemini = GEMINI_GENERATE.exec(p);
  if (!gemini) return undefined;
  return {
    dialect: "gemini",
    kind: "generate",
    model: decodeURIComponent(gemini[1] ?? ""),
    stream: gemini[2] === "streamGenerateContent",
  };
}
