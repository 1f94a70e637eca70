/**
 * How a verdict is spelled in a matrix cell. Silent defects are upper case so they stand out
 * in plain text too; `not-run` and `error` read as absences, never as a pass. The meanings
 * are DESIGN.md's verdict table.
 */
import type { VerdictKind } from "../probes/verdict.ts";
import { mdText } from "./markdown-text.ts";

export const VERDICT_TOKEN = {
  preserved: "ok",
  "no-equivalent": "n/e",
  dropped: "DROPPED",
  mangled: "MANGLED",
  invented: "INVENTED",
  leaked: "LEAKED",
  rejected: "rejected",
  error: "error",
  "not-run": "not-run",
} as const satisfies Record<VerdictKind, string>;

export const VERDICT_MEANING = {
  preserved: "carried with the same meaning (clean)",
  "no-equivalent":
    "the target dialect cannot express it, from a cited table (clean, counted apart)",
  dropped: "silently absent (silent defect)",
  mangled: "present with changed meaning: value, type, id, order, stringified (silent defect)",
  invented: "present downstream, never sent upstream of it (silent defect)",
  leaked: "a client credential or secret reached the upstream request (silent defect)",
  rejected: "the gateway refused loudly with a 4xx/5xx and a message (loud)",
  error: "transport failure or a checker that could not decide (not a finding)",
  "not-run": "not measured: gateway unavailable or budget exhausted (not a finding)",
} as const satisfies Record<VerdictKind, string>;

/** Marks for the control leg: the same field sent over the gateway's native route. */
export const CONTROL_MARK = {
  /** Native route carried it: the loss is the translation's. */
  clean: "⊕",
  /** Lost on the native route too: not a translation problem. */
  lost: "⊖",
  /** The control leg itself could not be judged. */
  undecided: "⊘",
} as const;

/** A GitHub `owner/repo#123` reference becomes a link; anything else is shown as given. */
export function knownIssueLink(ref: string): string {
  const m = /^([\w.-]+\/[\w.-]+)#(\d+)$/.exec(ref);
  if (m) return `[${ref}](https://github.com/${m[1]}/issues/${m[2]})`;
  if (/^https?:\/\/[^\s<>]+$/.test(ref)) return `<${ref}>`;
  return mdText(ref);
}
