/**
 * The built-in corpus: every probe file, in a stable order (client dialect, then axis).
 * Order matters only for reading; ids are what the database keys on.
 */
import { credentialTemplates } from "./all-clients/credential.ts";
import { errorTemplates } from "./all-clients/error.ts";
import { expandTemplates } from "./all-clients/expand.ts";
import { failureTemplates } from "./all-clients/failure.ts";
import { pathTemplates } from "./all-clients/path.ts";
import { responseTemplates } from "./all-clients/response.ts";
import { streamTemplates } from "./all-clients/stream.ts";
import { anthropicContentProbes } from "./anthropic-messages/content.ts";
import { anthropicHeaderProbes } from "./anthropic-messages/header.ts";
import { anthropicHistoryProbes } from "./anthropic-messages/history.ts";
import { anthropicPassthroughProbes } from "./anthropic-messages/passthrough.ts";
import { anthropicRequestProbes } from "./anthropic-messages/request.ts";
import { chatContentProbes } from "./openai-chat/content.ts";
import { chatHeaderProbes } from "./openai-chat/header.ts";
import { chatHistoryProbes } from "./openai-chat/history.ts";
import { chatRequestProbes } from "./openai-chat/request.ts";
import { responsesContentProbes } from "./openai-responses/content.ts";
import { responsesHeaderProbes } from "./openai-responses/header.ts";
import { responsesPassthroughProbes } from "./openai-responses/passthrough.ts";
import { responsesRequestProbes } from "./openai-responses/request.ts";
import type { Probe } from "./probe.ts";
import { withReferenceFindings } from "./reference-findings.ts";

export const CORPUS: readonly Probe[] = withReferenceFindings([
  ...anthropicRequestProbes,
  ...anthropicPassthroughProbes,
  ...anthropicContentProbes,
  ...anthropicHistoryProbes,
  ...anthropicHeaderProbes,
  ...chatRequestProbes,
  ...chatContentProbes,
  ...chatHistoryProbes,
  ...chatHeaderProbes,
  ...responsesRequestProbes,
  ...responsesPassthroughProbes,
  ...responsesContentProbes,
  ...responsesHeaderProbes,
  ...expandTemplates([
    ...credentialTemplates,
    ...pathTemplates,
    ...responseTemplates,
    ...streamTemplates,
    ...errorTemplates,
    ...failureTemplates,
  ]),
]);

export function probeById(id: string): Probe | undefined {
  return CORPUS.find((probe) => probe.id === id);
}
