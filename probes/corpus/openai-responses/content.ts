/**
 * OpenAI Responses input items: media, files, function calls and their outputs, replayed
 * reasoning, and a system note between a call and its output.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
import type { Probe } from "../probe.ts";
import { ASK, BOTH_MODES, IMAGE_URL, PDF_BASE64, PNG_BASE64, TOOLS } from "../shared.ts";

const tools = TOOLS["openai-responses"];

function userWith(parts: unknown[]) {
  return { input: [{ role: "user", content: [{ type: "input_text", text: "Look." }, ...parts] }] };
}

/** user → function_call → [between] → function_call_output. */
function callTurn(
  callId: string,
  output: unknown,
  between: unknown[] = [],
  before: unknown[] = [],
) {
  return {
    tools,
    input: [
      { role: "user", content: ASK },
      ...before,
      {
        type: "function_call",
        call_id: callId,
        name: "get_weather",
        arguments: '{"city":"Paris"}',
      },
      ...between,
      { type: "function_call_output", call_id: callId, output },
    ],
  };
}

export const responsesContentProbes: Probe[] = [
  {
    id: "or-image-base64",
    client: "openai-responses",
    axis: "content",
    field: "input[].content[].image_url",
    request: userWith([{ type: "input_image", image_url: `data:image/png;base64,${PNG_BASE64}` }]),
    modes: BOTH_MODES,
    severity: "high",
    note: "the data URL arrives as an image part with the same bytes",
  },
  {
    id: "or-image-url",
    client: "openai-responses",
    axis: "content",
    field: "input[].content[].image_url",
    request: userWith([{ type: "input_image", image_url: IMAGE_URL, detail: "high" }]),
    modes: BOTH_MODES,
    severity: "high",
    note: "the URL image arrives with the same URL",
  },
  {
    id: "or-file-pdf",
    client: "openai-responses",
    axis: "content",
    field: "input[].content[].file_data",
    request: userWith([
      {
        type: "input_file",
        filename: "probe.pdf",
        file_data: `data:application/pdf;base64,${PDF_BASE64}`,
      },
    ]),
    modes: BOTH_MODES,
    severity: "high",
    note: "the PDF arrives as a document part with the same bytes",
  },
  {
    id: "or-function-call-output",
    client: "openai-responses",
    axis: "content",
    field: "input[].function_call_output",
    request: callTurn("call_PROBE01", "RESULTPROBE 18C sunny"),
    modes: BOTH_MODES,
    severity: "critical",
    note: "the output arrives as the tool result for call_PROBE01",
  },
  {
    id: "or-function-call-output-image",
    client: "openai-responses",
    axis: "content",
    field: "input[].function_call_output",
    request: callTurn("call_PROBE02", [
      { type: "input_text", text: "RESULTPROBE chart" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG_BASE64}` },
    ]),
    modes: BOTH_MODES,
    severity: "high",
    note: "an image inside the output arrives as an image, not stringified",
  },
  {
    id: "or-function-call-arguments",
    client: "openai-responses",
    axis: "content",
    field: "input[].arguments",
    request: callTurn("call_PROBE03", "18C"),
    modes: BOTH_MODES,
    severity: "high",
    note: 'the replayed arguments arrive as {"city":"Paris"} by value',
  },
  {
    id: "or-call-id-functions",
    client: "openai-responses",
    axis: "content",
    field: "input[].call_id",
    request: callTurn("functions.list_skills:0", "18C"),
    modes: BOTH_MODES,
    severity: "high",
    note: "Kimi-style call id arrives unchanged on call and output",
  },
  {
    id: "or-call-id-64",
    client: "openai-responses",
    axis: "content",
    field: "input[].call_id",
    request: callTurn(`call_${"Qw3-Er4_Ty".repeat(5)}Ui5Op6As7`, "18C"),
    modes: BOTH_MODES,
    severity: "high",
    note: "a 64-character call id arrives unchanged",
  },
  {
    id: "or-system-note-between",
    client: "openai-responses",
    axis: "content",
    field: "input",
    request: callTurn("call_NOTE", "18C", [
      { role: "system", content: "NOTEPROBE the user switched to Celsius" },
    ]),
    modes: BOTH_MODES,
    severity: "high",
    note: "the note keeps its text; the call and its output stay adjacent and in order",
  },
  {
    id: "or-reasoning-item-history",
    client: "openai-responses",
    axis: "content",
    field: "input[].reasoning",
    request: callTurn(
      "call_REASON",
      "18C",
      [],
      [
        {
          type: "reasoning",
          id: "rs_PROBE01",
          summary: [{ type: "summary_text", text: "THINKPROBE-9023 need weather" }],
          encrypted_content: "gAAAAABPROBEencryptedReasoningContent0123456789==",
        },
      ],
    ),
    modes: BOTH_MODES,
    severity: "high",
    note: "the reasoning item arrives as reasoning before the call, not as visible text",
  },
  {
    id: "or-reasoning-encrypted-content",
    client: "openai-responses",
    axis: "content",
    field: "input[].encrypted_content",
    request: callTurn(
      "call_ENC",
      "18C",
      [],
      [
        {
          type: "reasoning",
          id: "rs_PROBE02",
          summary: [],
          encrypted_content: "gAAAAABPROBEencryptedReasoningContent9876543210==",
        },
      ],
    ),
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["openai-responses"],
    note: "the encrypted content arrives byte-equal on a Responses backend",
  },
  {
    id: "or-multi-turn-order",
    client: "openai-responses",
    axis: "content",
    field: "input",
    request: {
      input: [
        { role: "user", content: "TURNPROBE-1 first question" },
        { role: "assistant", content: [{ type: "output_text", text: "TURNPROBE-2 first answer" }] },
        { role: "user", content: "TURNPROBE-3 second question" },
      ],
    },
    modes: BOTH_MODES,
    severity: "critical",
    note: "three turns arrive with the same roles, texts and order",
  },
];
