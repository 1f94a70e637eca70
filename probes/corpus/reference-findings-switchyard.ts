/**
 * The reference sweep's published findings for NVIDIA Switchyard 0.2.0 (the reference's
 * version; 0.3.0 is the default column, so these are measured only beside 0.2.0's column).
 */
import { CHAT, type FindingsPart, finding, onEveryClient } from "./reference-finding.ts";
import { K005, K006, K007, K010, K016, K017, K018, K023 } from "./reference-links.ts";

const SWITCHYARD_REF = ["0.2.0"];

export const SWITCHYARD_FINDINGS: FindingsPart[] = [
  {
    "am-tool-result-is-error": [
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "dropped",
        K006,
        "006: is_error lost on the way to OpenAI Chat",
        { backends: CHAT },
      ),
    ],
    "am-tool-result-image": [
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "mangled",
        K007,
        "007: image and document blocks in a tool result stringified",
        { backends: CHAT },
      ),
    ],
    "am-thinking-history": [
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "dropped",
        K016,
        "016: thinking history dropped on the Anthropic request translation",
        { backends: CHAT },
      ),
    ],
    "am-disable-parallel-tool-use": [
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "dropped",
        K017,
        "017: no parallel_tool_calls: false on the way to OpenAI Chat",
        { backends: CHAT },
      ),
    ],
    "am-document-pdf-base64": [
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "mangled",
        K018,
        "018: a user document block JSON-dumped into text",
        { backends: CHAT },
      ),
    ],
    "am-reply-finish-content-filter": [
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "mangled",
        K010,
        "010A: an upstream content_filter finish answered as end_turn (Switchyard#369)",
        { backends: CHAT },
      ),
    ],
    "am-reply-tool-call-id-punctuated": [
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "mangled",
        K005,
        "005: the tool-id sanitizer rewrites functions.x:0 to functions_x_0 (Switchyard#178)",
        { backends: CHAT },
      ),
    ],
  },
  onEveryClient(
    "credential-api-key",
    finding(
      "switchyard",
      SWITCHYARD_REF,
      "leaked",
      K023,
      "023: the client's api-key header is not on RESERVED_HEADERS and is forwarded",
    ),
  ),
  onEveryClient(
    "credential-openai-organization",
    finding("switchyard", SWITCHYARD_REF, "leaked", K023, "023: OpenAI-Organization is forwarded"),
  ),
  onEveryClient(
    "credential-openai-project",
    finding("switchyard", SWITCHYARD_REF, "leaked", K023, "023: OpenAI-Project is forwarded"),
  ),
];
