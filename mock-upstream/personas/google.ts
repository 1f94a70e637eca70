/**
 * Google's OpenAI-compatible endpoint (`/v1beta/openai/chat/completions`): the request is read
 * into a protobuf message, so a top-level key it does not know is an error, not ignored. The
 * error body is a JSON *array* holding one Google RPC error: adapters that expect an object
 * break on it, which is itself worth seeing.
 */
import { definePersona, type PersonaRule, type Violation } from "./persona.ts";

const REFERENCE = "https://ai.google.dev/api/compatibility";

/**
 * Top-level keys the endpoint accepts: the fields of `ChatCompletionsRequest` in the reference
 * (each row cites it). Keys seen rejected in the wild are listed apart, so a reader can tell
 * evidence from the reference's silence.
 */
export const GOOGLE_OPENAI_FIELDS = {
  model: REFERENCE,
  messages: REFERENCE,
  stream: REFERENCE,
  stream_options: REFERENCE,
  tools: REFERENCE,
  tool_choice: REFERENCE,
  modalities: REFERENCE,
  n: REFERENCE,
  stop: REFERENCE,
  max_completion_tokens: REFERENCE,
  max_tokens: REFERENCE,
  temperature: REFERENCE,
  top_p: REFERENCE,
  response_format: REFERENCE,
  audio: REFERENCE,
  reasoning_effort: REFERENCE,
  seed: REFERENCE,
  /** Google-only settings travel in `extra_body.google` on the REST wire. */
  extra_body: "https://ai.google.dev/gemini-api/docs/openai#extra-body",
} as const satisfies Record<string, string>;

/** Keys observed rejected by the live endpoint, with the issue that shows the error body. */
export const GOOGLE_OPENAI_REJECTED_EVIDENCE = {
  store: "https://github.com/Routstr/routstr-core/issues/505",
  metadata: "https://github.com/ed-donner/agents/issues/45",
  frequency_penalty: "https://github.com/MinLL/SkyrimNet-GamePlugin/issues/77",
  top_k: "https://github.com/MinLL/SkyrimNet-GamePlugin/issues/77",
  reasoning: "https://github.com/SuzumiyaAkizuki/ComfyUI-NewBie-LLM-Formatter/issues/3",
  google: "https://github.com/Alishahryar1/free-claude-code/issues/542",
} as const satisfies Record<string, string>;

const unknownName = (key: string) =>
  `Invalid JSON payload received. Unknown name ${JSON.stringify(key)}: Cannot find field.`;

const rules: PersonaRule[] = [
  {
    id: "google/unknown-field",
    description:
      "Top-level keys outside ChatCompletionsRequest (store, metadata, top_k, ...) are rejected with INVALID_ARGUMENT, one line per key.",
    citations: [
      REFERENCE,
      "https://github.com/liliMozi/openhanako/issues/394",
      "https://github.com/Routstr/routstr-core/issues/505",
    ],
    dialects: ["openai-chat"],
    check(body): Violation | undefined {
      const unknown = Object.keys(body).filter((key) => !Object.hasOwn(GOOGLE_OPENAI_FIELDS, key));
      if (unknown.length === 0) return undefined;
      return { message: unknown.map(unknownName).join("\n") };
    },
  },
];

export const google = definePersona({
  name: "google",
  description:
    "Gemini's OpenAI-compatible endpoint: unknown top-level fields are rejected with a Google RPC error inside a JSON array.",
  rules,
  reject: (violation) => ({
    status: violation.status ?? 400,
    body: [
      {
        error: {
          code: violation.status ?? 400,
          message: violation.message,
          status: "INVALID_ARGUMENT",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.BadRequest",
              fieldViolations: violation.message
                .split("\n")
                .map((description) => ({ description })),
            },
          ],
        },
      },
    ],
  }),
});
