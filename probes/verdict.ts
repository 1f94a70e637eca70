/**
 * The verdict vocabulary of DESIGN.md. Every judgement the lens makes is one of these,
 * with a reason that names the two values it compared.
 */
import type { Cause } from "./causes.ts";
import type { Subject } from "./subject.ts";

export const VERDICTS = [
  "preserved",
  "no-equivalent",
  "dropped",
  "mangled",
  "invented",
  "leaked",
  "rejected",
  "error",
  "not-run",
] as const;

export type VerdictKind = (typeof VERDICTS)[number];

/** How a verdict counts in a matrix. */
export type VerdictClass = "clean" | "silent" | "loud" | "not-a-finding";

export const VERDICT_CLASS: Record<VerdictKind, VerdictClass> = {
  preserved: "clean",
  "no-equivalent": "clean",
  dropped: "silent",
  mangled: "silent",
  invented: "silent",
  leaked: "silent",
  rejected: "loud",
  error: "not-a-finding",
  "not-run": "not-a-finding",
};

export interface Verdict {
  /**
   * What was judged, the same for every client dialect (probes/subject.ts): a canonical
   * request attribute (`tools.strict`), a reply feature (`finish_reason`), a header, a
   * credential, a failure field, `path`, or an unmapped client key (`extras.<key>`). Queries
   * and comparisons key on it.
   */
  subject: Subject;
  /** The field as the client's dialect spells it (`tools[].function.strict`), for display. */
  field: string;
  verdict: VerdictKind;
  /** `<field>: <the two values compared>`, e.g. `stop_sequences: ["STOPPROBE"] → absent`. */
  reason: string;
  /** Why, where the verdict alone does not say (probes/causes.ts). */
  cause?: Cause;
  /** The value the upstream side held and the one the downstream side held, where the
   * verdict compared one value each and both are small (describe.ts `comparedValues`). */
  sent?: unknown;
  got?: unknown;
  /** Which direction was judged. */
  direction?: "request" | "reply";
}

export function isSilentDefect(kind: VerdictKind): boolean {
  return VERDICT_CLASS[kind] === "silent";
}

export function isClean(kind: VerdictKind): boolean {
  return VERDICT_CLASS[kind] === "clean";
}
