/**
 * OpenAI Chat content parts and tool results.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import type { Probe } from "../probe.ts";
import {
  ASK,
  BOTH_MODES,
  IMAGE_URL,
  PDF_BASE64,
  PNG_BASE64,
  TOOLS,
  WAV_BASE64,
} from "../shared.ts";

const tools = TOOLS["openai-chat"];

/** A user turn, an assistant tool call, and the tool message answering it. */
function toolTurn(result: unknown) {
  return {
    tools,
    messages: [
      { role: "user", content: ASK },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_PROBE01",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_PROBE01", content: result },
    ],
  };
}

export const chatContentProbes: Probe[] = [
  {
    id: "oc-image-base64",
    client: "openai-chat",
    axis: "content",
    field: "messages[].content[].image_url",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Describe." },
            { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "the data URL arrives as an image part with the same bytes and media type",
  },
  {
    id: "oc-image-url",
    client: "openai-chat",
    axis: "content",
    field: "messages[].content[].image_url",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Describe." },
            { type: "image_url", image_url: { url: IMAGE_URL, detail: "low" } },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "the URL image arrives with the same URL (detail kept where the backend has it)",
  },
  {
    id: "oc-file-pdf",
    client: "openai-chat",
    axis: "content",
    field: "messages[].content[].file",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Summarize." },
            {
              type: "file",
              file: {
                filename: "probe.pdf",
                file_data: `data:application/pdf;base64,${PDF_BASE64}`,
              },
            },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "the PDF arrives as a document part with the same bytes",
  },
  {
    id: "oc-input-audio",
    client: "openai-chat",
    axis: "content",
    field: "messages[].content[].input_audio",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Transcribe." },
            { type: "input_audio", input_audio: { data: WAV_BASE64, format: "wav" } },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "the audio arrives as audio (Gemini inlineData) or no-equivalent, never as text",
  },
  {
    id: "oc-text-parts",
    client: "openai-chat",
    axis: "content",
    field: "messages[].content",
    request: {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "PARTPROBE-1 first part." },
            { type: "text", text: "PARTPROBE-2 second part." },
          ],
        },
      ],
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "two text parts arrive as two parts (or joined with their order kept)",
  },
  {
    id: "oc-tool-result-text",
    client: "openai-chat",
    axis: "content",
    field: "messages[role=tool]",
    request: toolTurn("RESULTPROBE 18C sunny"),
    modes: BOTH_MODES,
    severity: "critical",
    note: "the tool message arrives as the result for call_PROBE01",
  },
  {
    id: "oc-tool-result-parts",
    client: "openai-chat",
    axis: "content",
    field: "messages[role=tool]",
    request: toolTurn([
      { type: "text", text: "RESULTPROBE-A" },
      { type: "text", text: "RESULTPROBE-B" },
    ]),
    modes: BOTH_MODES,
    severity: "medium",
    note: "an array-of-parts tool result arrives with both texts, in order",
  },
  {
    id: "oc-tool-call-arguments",
    client: "openai-chat",
    axis: "content",
    field: "messages[].tool_calls[].function.arguments",
    request: toolTurn("RESULTPROBE"),
    modes: BOTH_MODES,
    severity: "high",
    note: 'the replayed arguments arrive as {"city":"Paris"} by value',
  },
  {
    id: "oc-tool-call-name",
    client: "openai-chat",
    axis: "content",
    field: "messages[].tool_calls[].function.name",
    request: toolTurn("RESULTPROBE"),
    modes: BOTH_MODES,
    severity: "high",
    note: "the replayed call keeps the name get_weather",
  },
];
