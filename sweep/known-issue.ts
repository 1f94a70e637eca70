/**
 * Which known upstream issue (a positive control) a cell stands for: the probe's entry for
 * this gateway whose versions include the version that ran. Versions are an exact list or a
 * range of space-separated comparators (`>=1.96.2 <1.97`), the subset of semver ranges the
 * corpus uses.
 */
import type { Dialect, Mode } from "../dialects/dialect.ts";
import type { KnownIssue, Probe } from "../probes/corpus/probe.ts";

function parts(version: string): number[] {
  return version
    .replace(/^v/, "")
    .split(/[.+-]/)
    .slice(0, 3)
    .map((p) => Number.parseInt(p, 10) || 0);
}

function compare(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const COMPARATOR = /^(>=|<=|>|<|=)?\s*v?(\d+(?:\.\d+){0,2})$/;

export function versionMatches(version: string, versions: KnownIssue["versions"]): boolean {
  if (Array.isArray(versions)) return versions.includes(version);
  // An issue that names no version (`*`) stands for every version.
  if (versions.trim() === "*") return true;
  return versions
    .trim()
    .split(/\s+/)
    .every((comparator) => {
      const match = COMPARATOR.exec(comparator);
      if (!match) return false;
      const d = compare(version, match[2] ?? "0");
      switch (match[1]) {
        case ">=":
          return d >= 0;
        case "<=":
          return d <= 0;
        case ">":
          return d > 0;
        case "<":
          return d < 0;
        default:
          return d === 0;
      }
    });
}

/** The probe's known issue for this gateway, version, backend dialect and mode, if any. */
export function knownIssueFor(
  probe: Probe,
  where: { gateway: string; version: string; backend: Dialect; mode: Mode },
): KnownIssue | undefined {
  return probe.knownIssues?.find(
    (issue) =>
      issue.gateway === where.gateway &&
      versionMatches(where.version, issue.versions) &&
      (issue.backends === undefined || issue.backends.includes(where.backend)) &&
      (issue.modes === undefined || issue.modes.includes(where.mode)),
  );
}
