/**
 * The corpus checks itself. Every probe runs, for each backend it applies to and each of its
 * modes, through the three synthetic translations, and the lens judges the probe's field:
 * - carry-all must come back clean (preserved, or no-equivalent from the lens's table):
 *   otherwise the checker cannot pass;
 * - carry-nothing or leak-all must come back as a silent defect wherever carry-all was
 *   `preserved` (credentials: leak-all must be `leaked`): otherwise the checker cannot fire;
 * - nothing may throw, and no run may end in `error` (a checker that could not decide).
 */
import { DIALECTS, type Dialect, type Mode } from "../../dialects/dialect.ts";
import { buildClientRequest } from "../corpus/build.ts";
import { CANARY_VALUES } from "../corpus/canaries.ts";
import type { Probe } from "../corpus/probe.ts";
import { parseExchange } from "../exchange.ts";
import { judgeField } from "../lens/judge-exchange.ts";
import { isClean, isSilentDefect, type Verdict } from "../verdict.ts";
import { stepsOf } from "./render-upstream.ts";
import { TRANSLATE, TRANSLATIONS, type Translated, type TranslationName } from "./translations.ts";

export const SELF_CHECK_NONCE = "gc-5e1fc4ec05e1fc4e";
export const SELF_CHECK_MODEL = "gc-self-check-model";

export type ProblemKind = "cannot-pass" | "cannot-fire" | "throws" | "undecided";

export interface Problem {
  probe: string;
  backend: Dialect;
  mode: Mode;
  kind: ProblemKind;
  /** Which translation showed it, and the verdict with its reason. */
  detail: string;
}

export interface SelfCheckReport {
  probes: number;
  /** (probe, backend, mode) cells checked. */
  cells: number;
  problems: Problem[];
  /** Probe ids with at least one problem, sorted. */
  failing: string[];
}

/** One cell through one translation, judged on the probe's field. */
export function judgeTranslation(
  probe: Probe,
  backend: Dialect,
  mode: Mode,
  translation: TranslationName,
): Verdict {
  const request = buildClientRequest(probe, {
    nonce: SELF_CHECK_NONCE,
    mode,
    model: SELF_CHECK_MODEL,
  });
  const translated: Translated = TRANSLATE[translation]({
    client: probe.client,
    backend,
    mode,
    request,
    nonce: SELF_CHECK_NONCE,
    steps: stepsOf(probe.upstream),
  });
  const exchange = parseExchange({
    route: { client: probe.client, backend },
    mode,
    clientRequest: request,
    forwarded: translated.forwarded,
    ...(translated.upstreamReply ? { upstreamReply: translated.upstreamReply } : {}),
    ...(translated.clientResponse ? { clientResponse: translated.clientResponse } : {}),
    secrets: [...CANARY_VALUES],
    ...(probe.context ? { context: probe.context } : {}),
  });
  return judgeField(exchange, probe.field);
}

function describe(translation: TranslationName, v: Verdict): string {
  return `${translation} → ${v.verdict}: ${v.reason}`;
}

/** The problems of one (probe, backend, mode) cell; empty when its checker works. */
export function checkCell(probe: Probe, backend: Dialect, mode: Mode): Problem[] {
  const cell = { probe: probe.id, backend, mode };
  const verdicts = new Map<TranslationName, Verdict>();
  const problems: Problem[] = [];
  for (const translation of TRANSLATIONS) {
    try {
      verdicts.set(translation, judgeTranslation(probe, backend, mode, translation));
    } catch (error) {
      problems.push({
        ...cell,
        kind: "throws",
        detail: `${translation}: ${(error as Error).message}`,
      });
    }
  }
  if (problems.length > 0) return problems;
  for (const [translation, v] of verdicts) {
    if (v.verdict === "error")
      problems.push({ ...cell, kind: "undecided", detail: describe(translation, v) });
  }
  const all = verdicts.get("carry-all");
  if (all && all.verdict !== "error" && !isClean(all.verdict)) {
    problems.push({ ...cell, kind: "cannot-pass", detail: describe("carry-all", all) });
  }
  // Where the target cannot express the field, the lens rightly says no-equivalent for every
  // translation: there is nothing to fire on.
  if (all?.verdict !== "preserved") return problems;
  const nothing = verdicts.get("carry-nothing");
  const leak = verdicts.get("leak-all");
  // Absent downstream and judged no-equivalent: the lens's table says the target cannot say
  // it, so a forwarded copy is a bonus, and losing it is not a defect there.
  if (nothing?.verdict === "no-equivalent") return problems;
  if (probe.axis === "credential") {
    if (leak && leak.verdict !== "leaked") {
      problems.push({ ...cell, kind: "cannot-fire", detail: describe("leak-all", leak) });
    }
  } else if (![nothing, leak].some((v) => v && isSilentDefect(v.verdict))) {
    const seen = [
      nothing && describe("carry-nothing", nothing),
      leak && describe("leak-all", leak),
    ];
    problems.push({ ...cell, kind: "cannot-fire", detail: seen.filter(Boolean).join("; ") });
  }
  return problems;
}

export function runSelfCheck(probes: readonly Probe[]): SelfCheckReport {
  const problems: Problem[] = [];
  let cells = 0;
  for (const probe of probes) {
    for (const backend of probe.backends ?? DIALECTS) {
      for (const mode of probe.modes) {
        cells += 1;
        problems.push(...checkCell(probe, backend, mode));
      }
    }
  }
  const failing = [...new Set(problems.map((p) => p.probe))].sort();
  return { probes: probes.length, cells, problems, failing };
}
