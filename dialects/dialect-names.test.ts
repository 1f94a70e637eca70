/**
 * Dialect knowledge lives in `dialects/`: no source file outside it tests a dialect by its
 * name (it asks the dialect's module: a trait, a route, a header), the Anthropic API version
 * is written once, and so is the nonce's shape. Test files and fixtures may name dialects.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { DIALECTS } from "./dialect.ts";

const ROOT = join(import.meta.dirname, "..");
const ROOMS = ["gateways", "mock-upstream", "probes", "results", "scripts", "sweep"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "fixtures") return [];
    if (statSync(path).isDirectory()) return sources(path);
    if (name.endsWith(".test.ts")) return [];
    return /\.(ts|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

const names = DIALECTS.join("|");
const COMPARISONS = [
  new RegExp(`[=!]==?\\s*"(${names})"`),
  new RegExp(`"(${names})"\\s*[=!]==?`),
  new RegExp(`case\\s+"(${names})"\\s*:`),
  /\.startsWith\("(openai|anthropic|gemini|ollama)/,
];

function offending(patterns: readonly RegExp[]): string[] {
  const out: string[] = [];
  for (const file of ROOMS.flatMap((room) => sources(join(ROOT, room)))) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, i) => {
      if (patterns.some((p) => p.test(line)))
        out.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  return out;
}

describe("dialect knowledge outside dialects/", () => {
  it("finds no dialect name compared as a string", () => {
    expect(offending(COMPARISONS)).toEqual([]);
  });

  it("finds the Anthropic API version and the nonce's shape nowhere else", () => {
    expect(offending([/2023-06-01/, /gc-\[0-9a-f\]/])).toEqual([]);
  });
});
