/**
 * The reference sweep's published findings (kairo: `issues/SCOREBOARD.md`, `issues/MATRIX.md`
 * and one folder per finding) for the gateways gatecheck runs, as positive controls: each
 * names the probe that measures it, the version it was published for, the verdict the
 * cell must show there, and the finding's write-up at the commit we read. A finding whose
 * version is not a column of a run is not measured by it; where gatecheck's bytes disagree
 * on the same version, docs/gateways.md says why.
 *
 * `reproduced: true` only where a real-gateway test of this repository runs the cell
 * (sweep/live-gateways.test.ts); the matrix says reproduced or not for every run.
 */
import type { Dialect } from "../../dialects/dialect.ts";
import type { KnownIssue, Probe } from "./probe.ts";

const KAIRO = "https://github.com/Atharva-Kanherkar/kairo/blob";
const at = (commit: string, folder: string) => `${KAIRO}/${commit}/issues/${folder}/README.md`;
const MATRIX_1_83_9 = `${KAIRO}/0364bbec46b8a965ca9b4b4564ed055494bcc08a/issues/MATRIX.md`;

const K001 = at(
  "c54a7072147c6dd13f94385acda10272a48316b5",
  "001-anthropic-stream-toolcall-translation",
);
const K002 = at("7e40cca4cb4bbba5677c6cabce0889a8b22a2efc", "002-litellm-ollama-toolcall-loss");
const K005 = at("c54a7072147c6dd13f94385acda10272a48316b5", "005-switchyard-toolid-sanitizer");
const K006 = at("7ad80e73669d4d0bdb850b5f229b9f3b62ea39d6", "006-switchyard-crossformat-losses");
const K007 = at(
  "5184075b67a4a53f28c029d153072ef374f76b94",
  "007-switchyard-toolresult-multimodal-stringified",
);
const K010 = at(
  "bb35cf3e664d0bb3242b84598f3b43d84243d106",
  "010-switchyard-content-filter-and-reorder",
);
const K016 = at("c7221b122e44463ccd7e800035313da3ca6de487", "016-thinking-history-lost");
const K017 = at("c7221b122e44463ccd7e800035313da3ca6de487", "017-parallel-tool-flag-dropped");
const K018 = at("c7221b122e44463ccd7e800035313da3ca6de487", "018-user-document-dropped");
const K020 = at("ef446b94b7dcf148868f17a902ba88fb020ec341", "020-litellm-client-api-key");
const K022 = at("c4426eb7c38b16590c9794ef845a228fe278a0b7", "022-litellm-json-extra-headers");
const K023 = at("f3db89df5e5505794bad04e99f247ff2369e35df", "023-switchyard-forwards-org-api-key");
const K041 = at("f453ad1c8db672ebf278bbb64e05ea967a67e2fb", "041-litellm-drops-stop-sequences");
const K042 = at("705c5b208a264a5f4d00848895cbbc36ead17fc0", "042-gomodel-drops-output-format");
const K043 = at("3ef42f6321db533b8fcab8f7dda73fb475660e35", "043-gomodel-drops-parallel-tool-flag");
const K057 = at("8143372cd90fb091d2e8ebbfb1f1f18535c37e24", "057-any-llm-drops-thinking-history");
const K058 = at("64d126c199da74f0ff26f7086926224612b2138d", "058-any-llm-drops-parallel-tool-flag");
const K059 = at("8143372cd90fb091d2e8ebbfb1f1f18535c37e24", "059-any-llm-drops-is-error");
const K060 = at("64d126c199da74f0ff26f7086926224612b2138d", "060-any-llm-drops-toolresult-image");
const K061 = at(
  "80109643eaa09ad8475949f653eb5c0dd76c10c9",
  "061-any-llm-drops-toolresult-document",
);
const K064 = at("61353b711ecaf55c23623a9ca26e8f9301cc0c70", "064-litellm-drops-tool-strict");

const RESPONSES: Dialect[] = ["openai-responses"];
/** 020 and 022 were captured on a mock OpenAI backend and live Gemini. */
const OPENAI_AND_GEMINI: Dialect[] = ["openai-chat", "openai-responses", "gemini"];
const CHAT: Dialect[] = ["openai-chat"];

/** One finding: who, which version, what the cell shows, where it was published. */
function finding(
  gateway: string,
  versions: string[],
  expect: KnownIssue["expect"],
  url: string,
  note: string,
  where: { backends?: Dialect[]; modes?: KnownIssue["modes"]; reproduced?: boolean } = {},
): KnownIssue {
  return {
    gateway,
    versions,
    expect,
    url,
    reproduced: where.reproduced ?? false,
    ...(where.backends && { backends: where.backends }),
    ...(where.modes && { modes: where.modes }),
    note,
  };
}

const LITELLM_CURRENT = ["1.96.2"];
const LITELLM_MATRIX = ["1.83.9"];
const SWITCHYARD_REF = ["0.2.0"];

/** The same credential finding on every client dialect's probe of that place. */
const onEveryClient = (slug: string, issue: KnownIssue): Record<string, KnownIssue[]> =>
  Object.fromEntries(["am", "oc", "or"].map((p) => [`${p}-${slug}`, [issue]]));

const findings: Record<string, KnownIssue[]>[] = [
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
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "dropped",
        K006,
        "006: is_error lost on the way to OpenAI Chat",
        { backends: CHAT },
      ),
      finding("any-llm", ["1.26.0"], "dropped", K059, "059: is_error lost on the Messages bridge", {
        backends: CHAT,
      }),
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
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "mangled",
        K007,
        "007: image and document blocks in a tool result stringified",
        { backends: CHAT },
      ),
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
        "litellm",
        LITELLM_CURRENT,
        "mangled",
        K016,
        "016: thinking history leaked as visible output_text on the way to Responses",
        { backends: RESPONSES, reproduced: true },
      ),
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "dropped",
        K016,
        "016: thinking history dropped on the Anthropic request translation",
        { backends: CHAT },
      ),
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
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "dropped",
        K017,
        "017: no parallel_tool_calls: false on the way to OpenAI Chat",
        { backends: CHAT },
      ),
      finding(
        "gomodel",
        ["0.1.77"],
        "dropped",
        K043,
        "043: /v1/messages forwards tool_choice auto with no parallel_tool_calls",
        { backends: CHAT },
      ),
      finding(
        "any-llm",
        ["1.26.0"],
        "dropped",
        K058,
        "058: the Messages bridge maps tool_choice by type only",
        { backends: CHAT },
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
      finding(
        "switchyard",
        SWITCHYARD_REF,
        "mangled",
        K018,
        "018: a user document block JSON-dumped into text",
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

/** Probe id -> the reference's findings measured by that probe. */
export const REFERENCE_FINDINGS: Readonly<Record<string, readonly KnownIssue[]>> = findings.reduce<
  Record<string, KnownIssue[]>
>((all, part) => {
  for (const [id, issues] of Object.entries(part)) all[id] = [...(all[id] ?? []), ...issues];
  return all;
}, {});

/** The probes with the reference's findings added to their own known issues. */
export function withReferenceFindings(probes: readonly Probe[]): Probe[] {
  return probes.map((probe) => {
    const extra = REFERENCE_FINDINGS[probe.id];
    return extra ? { ...probe, knownIssues: [...(probe.knownIssues ?? []), ...extra] } : probe;
  });
}
