/**
 * `gatecheck check` takes anyone's traffic: whatever shape a body has, the lens judges it or
 * refuses the file with an ExchangeError (exit 2), and never throws anything else. Every
 * lens fixture is changed at one place at a time, anywhere in the file or inside a JSON body
 * it carries as text, to values of the wrong type; a fixed seed keeps the cases the same.
 */
import { describe, expect, it } from "vitest";
import { ExchangeError, parseExchange } from "../exchange.ts";
import { VERDICTS } from "../verdict.ts";
import { fixtureJsonFiles } from "./fixture-values.ts";
import { judgeExchange } from "./judge-exchange.ts";

const ODD_VALUES: readonly unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  "",
  "x",
  "{",
  true,
  [],
  {},
  [null],
  [{}],
  { type: "x" },
];
const CASES_PER_FIXTURE = 60;

type Path = (string | number)[];

/** A small deterministic generator (a linear congruential one): the same cases every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (at.length > 0) out.push(at);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) pathsOf(v, [...at, i], out);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  }
  return out;
}

function withValue(root: unknown, path: Path, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = withValue(copy[head], rest, value);
  return copy;
}

/** Where the bytes of the four sides are: most changes go there, so most reach the lens. */
function isBodyPath(path: Path): boolean {
  const [side, second, third] = path;
  if (side === "forwarded") return third === "body";
  return (
    (side === "clientRequest" || side === "upstreamReply" || side === "clientResponse") &&
    second === "body"
  );
}

/** One change: a value in the file, or (when the chosen value is a JSON text) inside it. */
function mutate(exchange: unknown, random: () => number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const all = pathsOf(exchange);
  const inBodies = all.filter(isBodyPath);
  const path = pick(inBodies.length > 0 && random() < 0.8 ? inBodies : all);
  const odd = pick(ODD_VALUES);
  let target: unknown = exchange;
  for (const key of path) target = (target as Record<string | number, unknown>)[key];
  if (typeof target === "string" && random() < 0.7) {
    try {
      const inner = JSON.parse(target) as unknown;
      const innerPaths = pathsOf(inner);
      if (innerPaths.length > 0) {
        const changed = JSON.stringify(withValue(inner, pick(innerPaths), odd));
        return withValue(exchange, path, changed);
      }
    } catch {
      // Not a JSON text: the value itself is replaced below.
    }
  }
  return withValue(exchange, path, odd);
}

describe("the lens on malformed traffic", () => {
  it("judges every changed exchange, or refuses it with an ExchangeError, never throws else", () => {
    const random = seeded(20261201);
    let judged = 0;
    let refused = 0;
    for (const fixture of fixtureJsonFiles()) {
      for (let i = 0; i < CASES_PER_FIXTURE; i++) {
        const variant = mutate(fixture, random);
        let verdicts: ReturnType<typeof judgeExchange>;
        try {
          verdicts = judgeExchange(parseExchange(variant));
        } catch (error) {
          if (!(error instanceof ExchangeError)) {
            throw new Error(`threw on ${JSON.stringify(variant).slice(0, 300)}: ${error}`);
          }
          refused++;
          continue;
        }
        judged++;
        for (const v of verdicts) {
          expect(VERDICTS).toContain(v.verdict);
          expect(typeof v.field).toBe("string");
          expect(v.reason.length).toBeGreaterThan(0);
        }
      }
    }
    // Both outcomes happen: the cases reach the lens, and some are refused as unusable.
    expect(judged).toBeGreaterThan(refused);
    expect(refused).toBeGreaterThan(0);
  });
});
