/**
 * The reference sweep's published findings for LiteLLM: 1.96.2 (the default column), 1.83.9
 * (the reference's MATRIX) and 1.82.0 (finding 001). `reproduced: true` only where a
 * real-gateway test of this repository runs the cell (sweep/live-gateways.test.ts).
 */
import {
  type FindingsPart,
  finding,
  OPENAI_AND_GEMINI,
  onEveryClient,
  RESPONSES,
} from "./reference-finding.ts";
import {
  K001,
  K002,
  K006,
  K007,
  K016,
  K017,
  K018,
  K020,
  K022,
  K041,
  K064,
  MATRIX_1_83_9,
} from "./reference-links.ts";

const LITELLM_CURRENT = ["1.96.2"];
const LITELLM_MATRIX = ["1.83.9"];

export const LITELLM_FINDINGS: FindingsPart[] = [
  {
    "am-reply-finish-tool-calls": [
      finding(
        "litellm",
        ["1.82.0"],
        "mangled",
        K001,
        "001: a streamed tool call ends with stop_reason end_turn after an empty text block (fixed by 1.96.2)",
        { backends: ["gemini"], modes: ["stream"] },
      ),
    ],
    "oc-reply-finish-tool-calls": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "mangled",
        K002,
        "002: ollama_chat/ streams finish_reason stop after a tool call (litellm#35663)",
        { backends: ["ollama"], modes: ["stream"] },
      ),
    ],
    "am-tool-result-is-error": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "dropped",
        K006,
        "006: /v1/messages to an OpenAI deployment (Responses) loses is_error",
        { backends: RESPONSES },
      ),
    ],
    "am-tool-result-image": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "mangled",
        K007,
        "007: an image in a tool result deleted on the way to Responses",
        { backends: RESPONSES },
      ),
      finding(
        "litellm",
        LITELLM_MATRIX,
        "mangled",
        MATRIX_1_83_9,
        "MATRIX (1.83.9): tool_result with image MANG [007]",
        { backends: RESPONSES },
      ),
    ],
    "am-thinking-history": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "mangled",
        K016,
        "016: thinking history leaked as visible output_text on the way to Responses",
        { backends: RESPONSES, reproduced: true },
      ),
    ],
    "am-disable-parallel-tool-use": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "dropped",
        K017,
        "017: no parallel_tool_calls: false on the way to Responses; Chat ingress keeps it",
        { backends: RESPONSES, reproduced: true },
      ),
      finding(
        "litellm",
        LITELLM_MATRIX,
        "dropped",
        MATRIX_1_83_9,
        "MATRIX (1.83.9): tool_choice.disable_parallel_tool_use DROP [017]",
        { backends: RESPONSES },
      ),
    ],
    "am-document-pdf-base64": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "dropped",
        K018,
        "018: a user document block deleted on the way to Responses",
        { backends: RESPONSES },
      ),
      finding(
        "litellm",
        LITELLM_MATRIX,
        "dropped",
        MATRIX_1_83_9,
        "MATRIX (1.83.9): document (pdf base64) DROP [018]",
        { backends: RESPONSES },
      ),
    ],
    "am-tools-strict": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "dropped",
        K064,
        "064: tools[].strict absent on the way to Responses",
        { backends: RESPONSES },
      ),
      finding(
        "litellm",
        LITELLM_MATRIX,
        "dropped",
        MATRIX_1_83_9,
        "MATRIX (1.83.9): tools[].strict DROP",
        { backends: RESPONSES },
      ),
    ],
    "am-stop-sequences": [
      finding(
        "litellm",
        LITELLM_MATRIX,
        "dropped",
        MATRIX_1_83_9,
        "MATRIX (1.83.9): stop_sequences DROP [041], control on the Chat ingress",
        { backends: RESPONSES },
      ),
      finding(
        "litellm",
        LITELLM_CURRENT,
        "dropped",
        K041,
        "041: stop_sequences absent on the way to Responses",
        { backends: RESPONSES },
      ),
    ],
    "am-output-config-effort": [
      finding(
        "litellm",
        LITELLM_MATRIX,
        "dropped",
        MATRIX_1_83_9,
        "MATRIX (1.83.9): output_config.effort DROP",
        { backends: RESPONSES },
      ),
    ],
    "am-thinking-adaptive": [
      finding(
        "litellm",
        LITELLM_MATRIX,
        "dropped",
        MATRIX_1_83_9,
        "MATRIX (1.83.9): thinking (adaptive) DROP",
        { backends: RESPONSES },
      ),
    ],
    "oc-credential-body-api-key": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "leaked",
        K020,
        "020: a body api_key replaces the deployment's key upstream",
        { backends: OPENAI_AND_GEMINI, reproduced: true },
      ),
    ],
  },
  onEveryClient(
    "credential-body-api-key",
    finding(
      "litellm",
      LITELLM_MATRIX,
      "leaked",
      MATRIX_1_83_9,
      "MATRIX (1.83.9): body api_key must not become upstream auth DROP [020]",
    ),
  ),
  {
    "am-credential-body-api-key": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "leaked",
        K020,
        "020: a body api_key replaces the deployment's key upstream",
        { backends: OPENAI_AND_GEMINI },
      ),
    ],
  },
  {
    "or-credential-body-api-key": [
      finding(
        "litellm",
        LITELLM_CURRENT,
        "leaked",
        K020,
        "020: a body api_key replaces the deployment's key upstream",
        { backends: OPENAI_AND_GEMINI },
      ),
    ],
  },
  onEveryClient(
    "credential-body-extra-headers",
    finding(
      "litellm",
      LITELLM_CURRENT,
      "leaked",
      K022,
      "022: JSON extra_headers reach the wire upstream",
      { backends: OPENAI_AND_GEMINI },
    ),
  ),
];
