import { describe, expect, it } from "vitest";
import type { Dialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { readRequest } from "../../dialects/request.ts";
import { backendPaths, malformedValue } from "./backend-keys.ts";
import type { RequestAttribute } from "./field-names.ts";
import { ATTRIBUTE_RULES } from "./request-rules.ts";

/** A body holding `value` at the dotted `path`. */
function bodyWith(path: string, value: unknown): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  let here = body;
  const keys = path.split(".");
  keys.slice(0, -1).forEach((key) => {
    const next: Record<string, unknown> = {};
    here[key] = next;
    here = next;
  });
  here[keys[keys.length - 1] as string] = value;
  return body;
}

/** A well-formed value of each attribute the backend-only table lists. */
const GOOD: Partial<Record<RequestAttribute, unknown>> = {
  model: "m",
  stream: true,
  "sampling.temperature": 0.3,
  "sampling.top-p": 0.9,
  "sampling.top-k": 7,
  "sampling.max-tokens": 100,
  "sampling.stop": ["STOPPROBE"],
  "sampling.seed": 42,
  "sampling.presence-penalty": 0.5,
  "sampling.frequency-penalty": 0.25,
  "sampling.n": 2,
  "reasoning.budget-tokens": 1024,
  "tool-choice": { mode: "ANY" },
};

/** The backend-only dialects' keys: every row of their field tables with a path of plain keys. */
const rows = (["gemini", "ollama"] as const satisfies readonly Dialect[]).flatMap((backend) =>
  dialectModule(backend)
    .fields.rows.filter(
      (row) => GOOD[row.attribute] !== undefined && /^[A-Za-z_]+(\.[A-Za-z_]+)*$/.test(row.path),
    )
    .map((row) => ({ backend, attribute: row.attribute, path: row.path })),
);

describe("backend keys", () => {
  it.each(rows)(
    "$backend $attribute: the reader reads $path, and keeps an odd value there raw",
    ({ backend, attribute, path }) => {
      const good = readRequest(backend, bodyWith(path, GOOD[attribute]));
      expect(ATTRIBUTE_RULES[attribute].kind).toBe("value");
      const rule = ATTRIBUTE_RULES[attribute] as { read: (r: typeof good) => unknown };
      expect(rule.read(good)).toBeDefined();
      expect(malformedValue(attribute, good)).toBeUndefined();
      const odd = readRequest(backend, bodyWith(path, { odd: true }));
      expect(rule.read(odd)).toBeUndefined();
      expect(malformedValue(attribute, odd)).toEqual({ path, raw: { odd: true } });
    },
  );

  it("takes a client dialect's keys from the spelling table, aliases included", () => {
    expect(backendPaths("sampling.stop", "anthropic-messages")).toEqual(["stop_sequences"]);
    expect(backendPaths("sampling.max-tokens", "openai-chat")).toContain("max_completion_tokens");
    // Content spellings with array steps are not a single key.
    expect(backendPaths("messages.text", "anthropic-messages")).toEqual([]);
    const string = readRequest("anthropic-messages", { stop_sequences: "STOPPROBE" });
    expect(malformedValue("sampling.stop", string)).toEqual({
      path: "stop_sequences",
      raw: "STOPPROBE",
    });
    expect(malformedValue("sampling.stop", readRequest("anthropic-messages", {}))).toBeUndefined();
  });
});
