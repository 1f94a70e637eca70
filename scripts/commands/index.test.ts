import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gatecheckProgram } from "../program.ts";

describe("the gatecheck program", () => {
  it("registers one command per file in scripts/commands, each with its action in scripts/actions", () => {
    const files = readdirSync(import.meta.dirname)
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .map((name) => name.replace(/\.ts$/, ""))
      .filter((name) => name !== "index" && name !== "lazy-action");
    const actions = readdirSync(new URL("../actions", import.meta.url))
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .map((name) => name.replace(/\.ts$/, ""));
    const names = gatecheckProgram().commands.map((c) => c.name());
    expect([...names].sort()).toEqual([...files].sort());
    expect(actions).toEqual(expect.arrayContaining(files));
  });
});
