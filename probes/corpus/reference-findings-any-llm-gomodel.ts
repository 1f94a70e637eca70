/**
 * The reference sweep's published findings for any-llm and GoModel. any-llm's were published
 * for any-llm-sdk 1.26.0, whose gateway is no longer bundled (1.14.0 is the column), so a
 * sweep measures them only if someone runs that version; GoModel's for 0.1.77.
 */
import { CHAT, type FindingsPart, finding } from "./reference-finding.ts";
import { K042, K043, K057, K058, K059, K060, K061 } from "./reference-links.ts";

export const ANY_LLM_FINDINGS: FindingsPart[] = [
  {
    "am-tool-result-is-error": [
      finding("any-llm", ["1.26.0"], "dropped", K059, "059: is_error lost on the Messages bridge", {
        backends: CHAT,
      }),
    ],
    "am-tool-result-image": [
      finding(
        "any-llm",
        ["1.26.0"],
        "dropped",
        K060,
        "060: an image in a tool result dropped on the Messages bridge",
        { backends: CHAT },
      ),
    ],
    "am-thinking-history": [
      finding(
        "any-llm",
        ["1.26.0"],
        "dropped",
        K057,
        "057: thinking history dropped on the Messages bridge",
        { backends: CHAT },
      ),
    ],
    "am-disable-parallel-tool-use": [
      finding(
        "any-llm",
        ["1.26.0"],
        "dropped",
        K058,
        "058: the Messages bridge maps tool_choice by type only",
        { backends: CHAT },
      ),
    ],
    "am-tool-result-document": [
      finding(
        "any-llm",
        ["1.26.0"],
        "dropped",
        K061,
        "061: a document in a tool result dropped on the Messages bridge",
        { backends: CHAT },
      ),
    ],
  },
];

export const GOMODEL_FINDINGS: FindingsPart[] = [
  {
    "am-disable-parallel-tool-use": [
      finding(
        "gomodel",
        ["0.1.77"],
        "dropped",
        K043,
        "043: /v1/messages forwards tool_choice auto with no parallel_tool_calls",
        { backends: CHAT },
      ),
    ],
    "am-output-config-format": [
      finding(
        "gomodel",
        ["0.1.77"],
        "dropped",
        K042,
        "042: /v1/messages drops the structured-output format",
        { backends: CHAT },
      ),
    ],
  },
];
