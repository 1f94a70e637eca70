/**
 * Does the official SDK read a client response the way the lens does? Both read the same
 * bytes; where they disagree, one of them (or our reading of the dialect) is wrong, and the
 * report must show it as a rig problem to look at, never hide it.
 *
 * Compared: acceptance (the lens's reply is clean: no error, a complete stream), the raw
 * stop reason, the assembled text, and the tool calls in order (id, name, and arguments as
 * parsed JSON; raw strings the lens cannot parse must not come out of the SDK as objects).
 */
import { isDeepStrictEqual } from "node:util";
import type { CanonicalReply } from "../../dialects/canonical.ts";
import type { SdkView } from "./sdk-view.ts";

export type AgreementAspect = "accepted" | "stop-reason" | "text" | "tool-calls";

export interface SdkLensDisagreement {
  aspect: AgreementAspect;
  sdk: string;
  lens: string;
}

const show = (value: unknown): string => (value === undefined ? "absent" : JSON.stringify(value));

function parsedOrUndefined(raw: string): { ok: boolean; value?: unknown } {
  try {
    return { ok: true, value: JSON.parse(raw === "" ? "{}" : raw) };
  } catch {
    return { ok: false };
  }
}

export function sdkLensDisagreements(sdk: SdkView, lens: CanonicalReply): SdkLensDisagreement[] {
  const out: SdkLensDisagreement[] = [];
  const lensAccepts = !lens.error && (lens.stream?.complete ?? true);
  if (sdk.accepted !== lensAccepts) {
    const why = lens.error
      ? `error ${show(lens.error.message ?? lens.error.type)}`
      : lens.stream && !lens.stream.complete
        ? "stream incomplete"
        : "clean reply";
    out.push({
      aspect: "accepted",
      sdk: sdk.accepted ? "accepted" : `refused: ${sdk.error ?? "?"}`,
      lens: why,
    });
  }
  if (!sdk.accepted || !lensAccepts) return out;
  if ((sdk.stopReason ?? undefined) !== (lens.rawStopReason ?? undefined)) {
    out.push({ aspect: "stop-reason", sdk: show(sdk.stopReason), lens: show(lens.rawStopReason) });
  }
  const lensText = lens.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
  if ((sdk.text ?? "") !== lensText)
    out.push({ aspect: "text", sdk: show(sdk.text ?? ""), lens: show(lensText) });
  const lensCalls = lens.parts.flatMap((p) => (p.type === "tool-call" ? [p] : []));
  const sdkCalls = sdk.toolCalls ?? [];
  const count = Math.max(lensCalls.length, sdkCalls.length);
  for (let i = 0; i < count; i++) {
    const a = sdkCalls[i];
    const b = lensCalls[i];
    if (!a || !b) {
      out.push({
        aspect: "tool-calls",
        sdk: a ? `call ${i} ${a.id}` : `no call ${i}`,
        lens: b ? `call ${i} ${b.id}` : `no call ${i}`,
      });
      continue;
    }
    if (a.id !== b.id || a.name !== b.name) {
      out.push({ aspect: "tool-calls", sdk: `${a.id} ${a.name}`, lens: `${b.id} ${b.name}` });
      continue;
    }
    const parsed = parsedOrUndefined(b.arguments);
    if (
      parsed.ok !== a.argumentsParsed ||
      (parsed.ok && !isDeepStrictEqual(parsed.value, a.arguments))
    ) {
      out.push({
        aspect: "tool-calls",
        sdk: `${a.id} arguments ${a.argumentsParsed ? show(a.arguments) : "unparseable"}`,
        lens: `${b.id} arguments ${show(b.arguments)}${parsed.ok ? "" : " (not JSON)"}`,
      });
    }
  }
  return out;
}
