/**
 * Path construction: the forwarded request must hit exactly the backend's documented path
 * (dialects/routes.ts), e.g. `/v1/chat/completions`, never `/v1/v1/chat/completions`, and
 * Gemini's stream method when streaming, with `?alt=sse` or without (a JSON array), the
 * variants its reply-form table documents.
 */
import type { ProbeTemplate } from "./expand.ts";

export const pathTemplates: ProbeTemplate[] = [
  {
    slug: "path-generate",
    axis: "path",
    field: "path",
    modes: ["non-stream"],
    severity: "critical",
    note: "the forwarded path equals the backend's documented generate path",
  },
  {
    slug: "path-stream",
    axis: "path",
    field: "path",
    modes: ["stream"],
    severity: "critical",
    note: "a streaming request hits a documented stream path (Gemini streamGenerateContent, ?alt=sse or none)",
  },
];
