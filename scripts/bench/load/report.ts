/**
 * The mock load benchmark's report: each server's medians over its rounds, and the ratios
 * issue 24's targets apply to, per round and their median, by requests/s and by CPU a
 * request. Pure: the rounds' samples in, the summary and its text out.
 */

/** One measured round of one server. */
export interface Sample {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The server's CPU (user + system, every thread) per answered request, µs. */
  cpuMicros: number;
  errors: number;
  /** A mock with a record file: ms until the file stopped growing after the round. */
  catchUpMs?: number;
  /** A mock with a record file: lines the file gained per answered request. */
  linesPerRequest?: number;
}

/** The targets: server `a` over server `b`, by requests/s (and by CPU a request). */
export const TARGETS = [
  { name: "mock / bare, JSON", a: "mock", b: "bare-json", target: 0.5 },
  { name: "mock / bare, 200-event SSE", a: "mock-sse", b: "bare-sse", target: 0.8 },
  { name: "mock / aimock, JSON", a: "mock", b: "aimock", target: 2 },
  { name: "mock-before / bare, JSON", a: "mock-before", b: "bare-json", target: 0.5 },
  { name: "mock-nofile / bare, JSON", a: "mock-nofile", b: "bare-json", target: 0.5 },
] as const;

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? ((s[(s.length - 1) >> 1] ?? 0) + (s[s.length >> 1] ?? 0)) / 2 : Number.NaN;
}

/** Per round, the requests/s of `a` over those of `b` (rounds are interleaved, so paired). */
function ratios(samples: ReadonlyMap<string, Sample[]>, a: string, b: string): number[] {
  const x = samples.get(a) ?? [];
  const y = samples.get(b) ?? [];
  return x.map((s, i) => s.perSecond / (y[i]?.perSecond ?? Number.NaN));
}

/** Per round, the CPU per request of `b` over that of `a`: the ratio where both are bound by their core. */
function cpuRatios(samples: ReadonlyMap<string, Sample[]>, a: string, b: string): number[] {
  const x = samples.get(a) ?? [];
  const y = samples.get(b) ?? [];
  return x.map((s, i) => (y[i]?.cpuMicros ?? Number.NaN) / s.cpuMicros);
}

const twoPlaces = (x: number) => Number(x.toFixed(2));

export function regimeSummary(samples: ReadonlyMap<string, Sample[]>) {
  const servers = [...samples].map(([name, s]) => ({
    name,
    perSecond: Math.round(median(s.map((x) => x.perSecond))),
    p50Ms: median(s.map((x) => x.p50Ms)),
    p99Ms: median(s.map((x) => x.p99Ms)),
    cpuMicrosPerRequest: Math.round(median(s.map((x) => x.cpuMicros))),
    errors: s.reduce((n, x) => n + x.errors, 0),
    ...(s[0]?.catchUpMs === undefined
      ? {}
      : {
          catchUpMsMax: Math.round(Math.max(...s.map((x) => x.catchUpMs ?? 0))),
          linesPerRequestMin: Math.min(...s.map((x) => x.linesPerRequest ?? 0)),
        }),
  }));
  const targets = TARGETS.filter((t) => samples.has(t.a) && samples.has(t.b)).map((t) => {
    const r = ratios(samples, t.a, t.b);
    const cpu = cpuRatios(samples, t.a, t.b);
    return {
      ...t,
      ratios: r.map(twoPlaces),
      median: twoPlaces(median(r)),
      cpuRatios: cpu.map(twoPlaces),
      cpuMedian: twoPlaces(median(cpu)),
    };
  });
  return { servers, targets };
}

/** The summary as the benchmark prints it: a heading, a JSON line per server, a line per target. */
export function regimeText(heading: string, summary: ReturnType<typeof regimeSummary>): string {
  let text = `\n== ${heading}\n`;
  for (const s of summary.servers) text += `${JSON.stringify(s)}\n`;
  for (const t of summary.targets) {
    const met = t.median >= t.target ? "met" : "NOT met";
    text +=
      `${t.name}: ${t.median} (rounds ${t.ratios.join(", ")}; target >= ${t.target}: ${met}); ` +
      `by CPU ${t.cpuMedian} (rounds ${t.cpuRatios.join(", ")})\n`;
  }
  return text;
}
