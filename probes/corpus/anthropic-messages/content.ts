/**
 * Anthropic Messages content blocks: media, documents, cache markers and tool results.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/docs/build-with-claude/pdf-support
 */
import type { Probe } from "../probe.ts";
import { ASK, BOTH_MODES, IMAGE_URL, PDF_BASE64, PDF_URL, PNG_BASE64, TOOLS } from "../shared.ts";

const tools = TOOLS["anthropic-messages"];
const png = { type: "base64", media_type: "image/png", data: PNG_BASE64 } as const;
const pdf = { type: "base64", media_type: "application/pdf", data: PDF_BASE64 } as const;

/** A user turn, a tool call, and the user turn answering it with `result`. */
function toolTurn(result: Record<string, unknown>) {
  return {
    tools,
    messages: [
      { role: "user", content: ASK },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_01PROBE", name: "get_weather", input: { city: "Paris" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01PROBE", ...result }] },
    ],
  };
}

export const anthropicContentProbes: Probe[] = [
  {
    id: "am-image-base64",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].image",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Describe." },
            { type: "image", source: png },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "the PNG arrives as an image part with the same bytes, not as base64 inside text",
  },
  {
    id: "am-image-url",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].image",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Describe." },
            { type: "image", source: { type: "url", url: IMAGE_URL } },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "the URL image arrives as an image part with the same URL",
  },
  {
    id: "am-document-pdf-base64",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].document",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Summarize." },
            { type: "document", source: pdf },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "the PDF arrives as a file/document part with the same bytes",
  },
  {
    id: "am-document-pdf-url",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].document",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Summarize." },
            { type: "document", source: { type: "url", url: PDF_URL }, title: "DOCPROBE" },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "the PDF URL arrives as a document part with the same URL",
  },
  {
    id: "am-document-text",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].document",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Summarize." },
            {
              type: "document",
              source: {
                type: "text",
                media_type: "text/plain",
                data: "DOCTEXTPROBE The grass is green. The sky is blue.",
              },
              title: "DOCPROBE notes",
            },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "medium",
    // https://docs.anthropic.com/en/docs/build-with-claude/citations#plain-text-documents
    note: "the plain-text document arrives as a document (its text as inline bytes where the backend has no text source), not as prose in a text part",
  },
  {
    id: "am-text-cache-control",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].cache_control",
    request: {
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "Cached prefix.", cache_control: { type: "ephemeral" } }],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["anthropic-messages"],
    note: "the marker stays on that block, with its type, on an Anthropic backend",
  },
  {
    id: "am-text-cache-control-ttl",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].cache_control",
    request: {
      messages: [
        {
          role: "user",
          content: [
            {
              type: "text",
              text: "Cached for an hour.",
              cache_control: { type: "ephemeral", ttl: "1h" },
            },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "low",
    backends: ["anthropic-messages"],
    note: 'ttl "1h" arrives with the marker',
  },
  {
    id: "am-tool-result-text",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].tool_result",
    request: toolTurn({ content: "RESULTPROBE 18C sunny" }),
    modes: BOTH_MODES,
    severity: "critical",
    note: "the result text arrives as the tool result for toolu_01PROBE",
  },
  {
    id: "am-tool-result-is-error",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].is_error",
    request: toolTurn({ is_error: true, content: "ERRPROBE city not found" }),
    modes: BOTH_MODES,
    severity: "high",
    note: "is_error arrives (Anthropic/Gemini) or no-equivalent with the error text kept",
  },
  {
    id: "am-tool-result-image",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].tool_result",
    request: toolTurn({ content: [{ type: "image", source: png }] }),
    modes: BOTH_MODES,
    severity: "high",
    note: "the image inside the result arrives as an image, not JSON-stringified into text",
  },
  {
    id: "am-tool-result-document",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].tool_result",
    request: toolTurn({
      content: [
        { type: "text", text: "RESULTPROBE see attached" },
        { type: "document", source: pdf },
      ],
    }),
    modes: BOTH_MODES,
    severity: "medium",
    note: "text and PDF inside the result arrive as two parts of the result",
  },
  {
    id: "am-tool-result-cache-control",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].cache_control",
    request: toolTurn({ content: "RESULTPROBE", cache_control: { type: "ephemeral" } }),
    modes: BOTH_MODES,
    severity: "low",
    backends: ["anthropic-messages"],
    note: "the marker stays on the tool_result block",
  },
  {
    id: "am-tool-use-input",
    client: "anthropic-messages",
    axis: "content",
    field: "messages[].content[].input",
    request: toolTurn({ content: "RESULTPROBE" }),
    modes: BOTH_MODES,
    severity: "high",
    note: 'the replayed call input arrives as {"city":"Paris"} by value',
  },
];
