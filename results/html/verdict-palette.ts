/**
 * Verdict colours of the HTML matrix. The palette is Okabe & Ito's, chosen because it stays
 * distinguishable under the common colour-vision deficiencies; the verdict token is printed
 * in every cell too, so colour is never the only signal. Absences (`error`, `not-run`) get
 * greys with a hatch pattern, so an unmeasured cell can never pass for a clean one.
 */
import type { VerdictKind } from "../../probes/verdict.ts";

export interface VerdictStyle {
  background: string;
  text: string;
  /** Hatched background: the cell is an absence of a measurement, not a result. */
  hatched: boolean;
}

/**
 * Okabe-Ito colours by verdict.
 * @see https://jfly.uni-koeln.de/color/ (Okabe & Ito, "Color Universal Design", 2008)
 */
export const VERDICT_STYLE = {
  /** Okabe-Ito bluish green. */
  preserved: { background: "#009E73", text: "#000000", hatched: false },
  /** Okabe-Ito sky blue: clean, but counted apart. */
  "no-equivalent": { background: "#56B4E9", text: "#000000", hatched: false },
  /** Okabe-Ito vermillion: the commonest silent defect stands out most. */
  dropped: { background: "#D55E00", text: "#FFFFFF", hatched: false },
  /** Okabe-Ito orange. */
  mangled: { background: "#E69F00", text: "#000000", hatched: false },
  /** Okabe-Ito reddish purple. */
  invented: { background: "#CC79A7", text: "#000000", hatched: false },
  /** Okabe-Ito black: a credential reached the upstream. */
  leaked: { background: "#000000", text: "#FFFFFF", hatched: false },
  /** Okabe-Ito yellow: loud, the gateway said no. */
  rejected: { background: "#F0E442", text: "#000000", hatched: false },
  /** Grey, hatched: the rig could not decide. */
  error: { background: "#BBBBBB", text: "#000000", hatched: true },
  /** White, hatched: nothing was measured. */
  "not-run": { background: "#FFFFFF", text: "#555555", hatched: true },
} as const satisfies Record<VerdictKind, VerdictStyle>;

/** CSS class of a verdict (`v-no-equivalent`). */
export function verdictClass(verdict: VerdictKind): string {
  return `v-${verdict}`;
}

/** One CSS rule per verdict, generated from the table so page and legend never disagree. */
export function verdictCss(): string {
  return Object.entries(VERDICT_STYLE)
    .map(([verdict, s]) => {
      const hatch = s.hatched
        ? `background-image:repeating-linear-gradient(45deg,transparent 0 4px,rgba(0,0,0,.18) 4px 6px);`
        : "";
      return `.v-${verdict}{background-color:${s.background};color:${s.text};${hatch}}`;
    })
    .join("\n");
}
