/**
 * Every duration flag is refused above what a timer holds (exit 2, the flag and the bound
 * named), never shortened to nothing: `query --timeout 2200000` once stopped after 0.4 s.
 */
import { describe, expect, it } from "vitest";
import { registerGateways } from "./commands/gateways.ts";
import { registerQuery } from "./commands/query.ts";
import { registerSweep } from "./commands/sweep.ts";
import { runCli } from "./commands/testing/run-cli.ts";
import { durationFlag, MINUTES, MS, SECONDS } from "./duration-flag.ts";

describe("durationFlag", () => {
  it("takes up to 2^31-1 ms in the flag's unit", () => {
    expect(durationFlag("2147483647", "--timeout-ms", MS)).toBe(2_147_483_647);
    expect(durationFlag("2147483.647", "--timeout", SECONDS)).toBe(2_147_483.647);
    expect(durationFlag("0.5", "--minutes", MINUTES)).toBe(0.5);
  });

  it("refuses longer, zero, negative, fractional ms and words", () => {
    expect(() => durationFlag("2147483648", "--timeout-ms", MS)).toThrow(
      /--timeout-ms 2147483648 is longer than gatecheck can wait: at most 2147483647 ms/,
    );
    expect(() => durationFlag("2200000", "--timeout", SECONDS)).toThrow(/at most 2147483 seconds/);
    expect(() => durationFlag("40000", "--minutes", MINUTES)).toThrow(/at most 35791 minutes/);
    for (const bad of ["0", "-1", "1.5", "x", ""]) {
      expect(() => durationFlag(bad, "--timeout-ms", MS), bad).toThrow(/takes a whole number/);
    }
  });
});

describe("the commands' duration flags", () => {
  it("exit 2 above the bound, before any work", async () => {
    const cases: [Parameters<typeof runCli>[0], string[], RegExp][] = [
      [
        [registerQuery],
        ["query", "SELECT 1", "--db", "none.db", "--timeout", "2200000"],
        /--timeout 2200000 is longer/,
      ],
      [
        [registerSweep],
        ["sweep", "--db", "none.db", "--timeout-ms", "3000000000"],
        /--timeout-ms 3000000000 is longer/,
      ],
      [
        [registerSweep],
        ["sweep", "--db", "none.db", "--minutes", "40000"],
        /--minutes 40000 is longer/,
      ],
      [
        [registerGateways],
        ["gateways", "doctor", "direct", "--timeout", "3e9"],
        /--timeout 3e9 is longer/,
      ],
    ];
    for (const [registers, args, message] of cases) {
      const run = await runCli(registers, args);
      expect(run.err, args.join(" ")).toMatch(message);
      expect(run.code, args.join(" ")).toBe(2);
    }
  });
});
