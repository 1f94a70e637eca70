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
  expect(lines).toContain("direct@0: 20/20 cells, 1 non-clean");
  expect(lines.at(-1)).toBe("direct@0: phase repeat");
  expect(lines.length).toBe(12);
});
