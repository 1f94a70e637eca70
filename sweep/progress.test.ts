import { expect, it } from "vitest";
import { createProgress } from "./progress.ts";

it("logs plain lines per tenth of a column and at its end", () => {
  const lines: string[] = [];
  const progress = createProgress({ tty: false, write: (l) => lines.push(l) });
  progress.column("direct@0", 20);
  for (let i = 0; i < 20; i++) progress.cell("direct@0", i === 3 ? "dropped" : "preserved");
  progress.note("direct@0", "phase repeat");
  progress.close();
  expect(lines[0]).toBe("direct@0: 20 cells");
  expect(lines).toContain("direct@0: 20/20 cells, 1 finding, 0 not measured");
  expect(lines.at(-1)).toBe("direct@0: phase repeat");
  expect(lines.length).toBe(12);
});

it("never counts a cell that did not run as a finding", () => {
  // The control column plans fallback cells it cannot run: not-run, not a defect.
  const lines: string[] = [];
  const progress = createProgress({ tty: false, write: (l) => lines.push(l) });
  progress.column("direct@0", 4);
  for (const verdict of ["not-run", "not-run", "error", "preserved"] as const) {
    progress.cell("direct@0", verdict);
  }
  progress.close();
  expect(lines.at(-1)).toBe("direct@0: 4/4 cells, 0 findings, 3 not measured");
});
