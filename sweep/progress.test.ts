import { expect, it } from "vitest";
import { createProgress, PLAIN_OVERALL_MS } from "./progress.ts";
import { fakeTerminal, playScreen } from "./testing-terminal.ts";

it("logs plain lines per tenth of a column's first pass, at each phase, and an overall line", () => {
  const lines: string[] = [];
  let t = 0;
  const progress = createProgress({ tty: false, write: (l) => lines.push(l), now: () => t });
  progress.column("direct@0", 20, { repeats: 3 });
  for (let i = 0; i < 20; i++) {
    t += 2000;
    progress.cell("direct@0", i === 3 ? "dropped" : "preserved");
  }
  progress.phase?.("direct@0", "repeats", 1);
  progress.step?.("direct@0");
  progress.note("direct@0", "a note");
  progress.end?.("direct@0");
  progress.close();
  expect(lines[0]).toBe("direct@0: 20 cells");
  expect(lines).toContain("direct@0: first pass 20/20 cells, 1 finding, 0 not measured");
  expect(lines).toContain(
    "direct@0: repeats 0/1 cells to 3 attempts (first pass 20/20 cells, 1 finding, 0 not measured)",
  );
  expect(lines.at(-2)).toBe("direct@0: a note");
  // Sparse: 10 tenths, 1 phase, the note, an overall line once 30 s passed and one at the end.
  expect(lines.filter((l) => l.startsWith("all: "))).toEqual([
    expect.stringMatching(
      /^all: \d+% · first pass 16\/20 cells · 1\/1 column running · elapsed 32s · ETA \d+s$/,
    ),
    "all: 100% · first pass 20/20 cells · 0/1 column running · elapsed 40s · ETA 0s",
  ]);
  expect(PLAIN_OVERALL_MS).toBeGreaterThan(10_000);
  expect(lines.length).toBe(1 + 10 + 1 + 1 + 2);
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
  expect(lines).toContain("direct@0: first pass 4/4 cells, 0 findings, 3 not measured");
  expect(progress.snapshot?.().columns[0]).toMatchObject({ findings: 0, notMeasured: 3 });
});

it("on a terminal: an overall bar and a bar per column, notes above them, each line drawn whole", async () => {
  const terminal = fakeTerminal();
  const progress = createProgress({
    tty: true,
    write: () => {},
    stream: terminal.stream,
  });
  progress.column("direct@0", 2, { repeats: 3 });
  progress.cell("direct@0", "dropped");
  progress.note("direct@0", "restarted");
  progress.cell("direct@0", "preserved");
  progress.phase?.("direct@0", "repeats", 1);
  await new Promise((r) => setTimeout(r, 150));
  progress.close();
  const text = terminal.written();
  expect(text).toMatch(
    / all {26}\|[█░]+\| \d+% · first pass 2\/2 cells · 1\/1 column running · elapsed \d+s · ETA/,
  );
  expect(text).toContain("\x1b[2Kdirect@0: restarted\n");
  // The final frame: the overall line and the column's line naming its phase, once each.
  const finalFrame = text.slice(text.lastIndexOf("\x1b[2Kdirect@0: restarted"));
  expect(finalFrame).toContain(
    "repeats 0/1 cells to 3 attempts (first pass 2/2 cells, 1 finding, 0 not measured)",
  );
});

it("on a terminal, a note printed above the bars leaves each bar on the screen once", async () => {
  const terminal = fakeTerminal();
  const progress = createProgress({ tty: true, write: () => {}, stream: terminal.stream });
  progress.column("a@1", 4);
  progress.column("b@1", 4);
  progress.cell("a@1", "preserved");
  progress.cell("b@1", "preserved");
  await new Promise((r) => setTimeout(r, 150));
  // Only a's line changes after the note: b's line must still be drawn, once, below it.
  progress.note("a@1", "restarted after a crash");
  progress.cell("a@1", "preserved");
  await new Promise((r) => setTimeout(r, 150));
  // A note just before the end still shows (notes wait for the next redraw).
  progress.note("b@1", "agent loops: 2 of 2 completed");
  progress.close();
  const screen = playScreen(terminal.written()).filter(Boolean);
  expect(screen[1]).toBe("b@1: agent loops: 2 of 2 completed");
  expect(screen.filter((l) => l.startsWith(" a@1 "))).toHaveLength(1);
  expect(screen.filter((l) => l.startsWith(" b@1 "))).toHaveLength(1);
  expect(screen.filter((l) => l.startsWith(" all "))).toHaveLength(1);
  expect(screen[0]).toBe("a@1: restarted after a crash");
  expect(screen.at(-1)).toMatch(
    /^ b@1 +\|[█░]+\| first pass 1\/4 cells, 0 findings, 0 not measured$/,
  );
});
