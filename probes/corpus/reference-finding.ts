/**
 * What one of the reference sweep's published findings says, as a known issue of the probe
 * that measures it: the gateway, the versions it was published for, the verdict the cell
 * must show there, the backends of the routes it was seen on, and the write-up's link.
 */
import type { Dialect } from "../../dialects/dialect.ts";
import type { KnownIssue } from "./probe.ts";

/** Probe id -> findings: one gateway's findings, or one finding on several probes. */
export type FindingsPart = Record<string, KnownIssue[]>;

export const RESPONSES: Dialect[] = ["openai-responses"];
/** 020 and 022 were captured on a mock OpenAI backend and live Gemini. */
export const OPENAI_AND_GEMINI: Dialect[] = ["openai-chat", "openai-responses", "gemini"];
export const CHAT: Dialect[] = ["openai-chat"];

/** One finding: who, which version, what the cell shows, where it was published. */
export function finding(
  gateway: string,
  versions: string[],
  expect: KnownIssue["expect"],
  url: string,
  note: string,
  where: { backends?: Dialect[]; modes?: KnownIssue["modes"]; reproduced?: boolean } = {},
): KnownIssue {
  return {
    gateway,
    versions,
    expect,
    url,
    reproduced: where.reproduced ?? false,
    ...(where.backends && { backends: where.backends }),
    ...(where.modes && { modes: where.modes }),
    note,
  };
}

/** The same credential finding on every client dialect's probe of that place. */
export const onEveryClient = (slug: string, issue: KnownIssue): FindingsPart =>
  Object.fromEntries(["am", "oc", "or"].map((p) => [`${p}-${slug}`, [issue]]));
