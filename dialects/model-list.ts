/**
 * Model-list bodies in each provider's documented shape. Fixed timestamps: the same list
 * always gives the same bytes.
 */
import type { JsonRecord } from "./json.ts";

const CREATED_UNIX = 1_735_689_600;
const CREATED_ISO = "2025-01-01T00:00:00Z";

/** @see https://platform.openai.com/docs/api-reference/models/list */
export function openaiModelList(ids: readonly string[]): JsonRecord {
  return {
    object: "list",
    data: ids.map((id) => ({ id, object: "model", created: CREATED_UNIX, owned_by: "openai" })),
  };
}

/** @see https://docs.anthropic.com/en/api/models-list */
export function anthropicModelList(ids: readonly string[]): JsonRecord {
  return {
    data: ids.map((id) => ({ type: "model", id, display_name: id, created_at: CREATED_ISO })),
    has_more: false,
    first_id: ids[0],
    last_id: ids[ids.length - 1],
  };
}

/** @see https://ai.google.dev/api/models#method:-models.list */
export function geminiModelList(ids: readonly string[]): JsonRecord {
  return {
    models: ids.map((id) => ({
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
export function ollamaModelList(ids: readonly string[]): JsonRecord {
  return {
    models: ids.map((name) => ({
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
