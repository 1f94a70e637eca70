/**
 * Literals the probe files share: markers, media, and one weather tool spelled in each client
 * dialect. Markers are distinctive strings, so a field found in the forwarded body can only
 * have come from the probe (and a marker echoed into prompt text is not a surviving field:
 * the lens compares fields, never substrings of the prompt).
 */
import type { ClientDialect } from "../../dialects/dialect.ts";

/** A 1x1 transparent PNG. */
export const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/** A one-object PDF (`%PDF-1.4 ... %%EOF`). */
export const PDF_BASE64 =
  "JVBERi0xLjQKMSAwIG9iajw8L1R5cGUvQ2F0YWxvZz4+ZW5kb2JqCnRyYWlsZXI8PC9Sb290IDEgMCBSPj4KJSVFT0YK";
/** A 44-byte WAV header with no samples. */
export const WAV_BASE64 = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";
export const IMAGE_URL = "https://example.com/gatecheck/probe-image.png";
export const PDF_URL = "https://example.com/gatecheck/probe-document.pdf";

export const WEATHER_SCHEMA = {
  type: "object",
  properties: { city: { type: "string", description: "City name" } },
  required: ["city"],
  additionalProperties: false,
} as const;

const TIME_SCHEMA = {
  type: "object",
  properties: { zone: { type: "string" } },
  required: ["zone"],
  additionalProperties: false,
} as const;

/** The probe tool, as each client dialect spells a function tool. */
export const TOOLS = {
  "anthropic-messages": [
    { name: "get_weather", description: "WXPROBE weather lookup", input_schema: WEATHER_SCHEMA },
    { name: "get_time", description: "Clock lookup", input_schema: TIME_SCHEMA },
  ],
  "openai-chat": [
    {
      type: "function",
      function: {
        name: "get_weather",
        description: "WXPROBE weather lookup",
        parameters: WEATHER_SCHEMA,
      },
    },
    {
      type: "function",
      function: { name: "get_time", description: "Clock lookup", parameters: TIME_SCHEMA },
    },
  ],
  "openai-responses": [
    {
      type: "function",
      name: "get_weather",
      description: "WXPROBE weather lookup",
      parameters: WEATHER_SCHEMA,
    },
    { type: "function", name: "get_time", description: "Clock lookup", parameters: TIME_SCHEMA },
  ],
} as const satisfies Record<ClientDialect, readonly unknown[]>;

/** The first user turn of a history probe (its text carries the nonce). */
/** Most probes run in both modes. */
export const BOTH_MODES = ["stream", "non-stream"] as const;

/** A LiteLLM issue several Chat probes cite (tools[].strict, the developer role). */
export const LITELLM_41913 = "https://github.com/BerriAI/litellm/issues/41913";

export const ASK = "What is the weather in Paris?";
