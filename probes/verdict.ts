/**
 * The verdict vocabulary of DESIGN.md. Every judgement the lens makes is one of these,
 * with a reason that names the two values it compared.
 */
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
  /** Field in the client dialect's dotted spelling (`stop_sequences`, `tools[].strict`),
   * or for reply features the upstream feature (`finish_reason`, `tool_calls[].id`). */
  field: string;
  verdict: VerdictKind;
  /** Short human reason with the two values compared: `["STOPPROBE"] → absent`. */
  reason: string;
  /** Finer-grained cause where one helps (e.g. `status-relabelled`, `stringified`, `erased-safety`). */
  cause?: string;
  /** Which direction was judged. */
  direction?: "request" | "reply";
}

export function isSilentDefect(kind: VerdictKind): boolean {
  return VERDICT_CLASS[kind] === "silent";
}

export function isClean(kind: VerdictKind): boolean {
  return VERDICT_CLASS[kind] === "clean";
}
