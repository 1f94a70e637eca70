/**
 * Model-list replies, one per listing shape. Gateways poll these at start-up or to validate
 * a model name, so each lists the models probes use, in the provider's documented shape.
 * Fixed timestamps: the same request always gets the same bytes.
 */

/** Models every listing offers (the ones probes and gateway configs name). */
export const MOCK_MODELS = {
  openai: ["gpt-4o-mini", "gpt-4.1", "o4-mini"],
  anthropic: ["claude-sonnet-4-20250514", "claude-3-5-haiku-20241022"],
  gemini: ["gemini-2.0-flash", "gemini-2.5-pro"],
  ollama: ["llama3.2:latest", "qwen3:8b"],
} as const;

export type ModelListShape = "openai" | "anthropic" | "gemini" | "ollama";

const CREATED_UNIX = 1_735_689_600;
const CREATED_ISO = "2025-01-01T00:00:00Z";

/** @see https://platform.openai.com/docs/api-reference/models/list */
function openaiList(): unknown {
  return {
    object: "list",
    data: MOCK_MODELS.openai.map((id) => ({
      id,
      object: "model",
      created: CREATED_UNIX,
      owned_by: "openai",
    })),
  };
}

/** @see https://docs.anthropic.com/en/api/models-list */
function anthropicList(): unknown {
  const ids = MOCK_MODELS.anthropic;
  return {
    data: ids.map((id) => ({
      type: "model",
      id,
      display_name: id,
      created_at: CREATED_ISO,
    })),
    has_more: false,
    first_id: ids[0],
    last_id: ids[ids.length - 1],
  };
}

/** @see https://ai.google.dev/api/models#method:-models.list */
function geminiList(): unknown {
  return {
    models: MOCK_MODELS.gemini.map((id) => ({
      name: `models/${id}`,
      version: "001",
      displayName: id,
      description: "gatecheck mock model",
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 8192,
      supportedGenerationMethods: ["generateContent", "countTokens"],
      temperature: 1,
      topP: 0.95,
      topK: 40,
      maxTemperature: 2,
    })),
  };
}

/** @see https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models */
function ollamaList(): unknown {
  return {
    models: MOCK_MODELS.ollama.map((name) => ({
      name,
      model: name,
      modified_at: CREATED_ISO,
      size: 2_019_393_189,
      digest: "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72",
      details: {
        parent_model: "",
        format: "gguf",
        family: "llama",
        families: ["llama"],
        parameter_size: "3.2B",
        quantization_level: "Q4_K_M",
      },
    })),
  };
}

export const MODEL_LISTS = {
  openai: openaiList,
  anthropic: anthropicList,
  gemini: geminiList,
  ollama: ollamaList,
} as const satisfies Record<ModelListShape, () => unknown>;

/**
 * `GET /v1/models` is shared by OpenAI, Anthropic and Gemini's `v1`: Anthropic's SDKs always
 * send `anthropic-version` and authenticate with `x-api-key`, Google's with `x-goog-api-key`,
 * OpenAI's with `authorization`.
 */
export function sharedModelsShape(
  headerNames: readonly string[],
): Extract<ModelListShape, "openai" | "anthropic" | "gemini"> {
  const lower = headerNames.map((n) => n.toLowerCase());
  if (lower.includes("anthropic-version") || lower.includes("x-api-key")) return "anthropic";
  return lower.includes("x-goog-api-key") ? "gemini" : "openai";
}
