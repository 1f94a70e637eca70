/**
 * What a real client sees, set beside what the lens read. The official SDK's view of the
 * client response (sweep/client-sdk) yields findings of its own (the `client-sdk` axis: a
 * success the SDK cannot read, tool arguments an agent cannot parse) and, where the SDK and
 * the lens read the same bytes differently, disagreements: a rig problem to look at, never
 * hidden.
 */
import type { CanonicalReply } from "../../dialects/canonical.ts";
import { sdkLensDisagreements } from "./sdk-lens-agreement.ts";
import type { SdkView } from "./sdk-view.ts";

export interface ClientSdkRecord {
  view: SdkView;
  /** `sdk-rejected-success`, `tool-arguments-unparseable`: what an agent would trip on. */
  findings: string[];
  /** Where the SDK and the lens read the bytes differently. */
  disagreements: string[];
}

export function compareSdkWithLens(
  status: number,
  view: SdkView,
  lens: CanonicalReply | undefined,
): ClientSdkRecord {
  const findings: string[] = [];
  const success = status >= 200 && status < 300;
  if (success && !view.accepted)
    findings.push(`sdk-rejected-success: ${view.error ?? "no reason given"}`);
  for (const call of view.toolCalls ?? []) {
    if (!call.argumentsParsed) {
      findings.push(
        `tool-arguments-unparseable: ${call.name} (${call.id}): ${call.argumentsError ?? "not JSON"}`,
      );
    }
  }
  const disagreements = lens
    ? sdkLensDisagreements(view, lens).map((d) => `${d.aspect}: SDK ${d.sdk} vs lens ${d.lens}`)
    : [];
  return { view, findings, disagreements };
}
