/**
 * The models each provider's model list offers: gateways poll a list at start-up or to
 * validate a model name, so each names the models probes use. The bodies are the dialect
 * modules' (`reply.modelList`), in the provider's documented shape.
 */
import type { Provider } from "../dialects/dialect-module.ts";

/** Models every listing offers (the ones probes and gateway configs name). */
export const MOCK_MODELS = {
  openai: ["gpt-4o-mini", "gpt-4.1", "o4-mini"],
  anthropic: ["claude-sonnet-4-20250514", "claude-3-5-haiku-20241022"],
  google: ["gemini-2.0-flash", "gemini-2.5-pro"],
  ollama: ["llama3.2:latest", "qwen3:8b"],
} as const satisfies Record<Provider, readonly string[]>;
