/**
 * What the sweep tells a person while it runs (progress-model.ts holds the counts and the
 * text). On a TTY: one overall bar (share of the attempts done across columns and phases,
 * first-pass cells, elapsed time, ETA) and one live line per gateway column naming its phase
 * (first pass, repeats, control legs, agent loops, done); notes print above the bars. A
 * finding is a silent defect or a rejection; a cell not run or in error is not measured,
 * never counted as a finding. Elsewhere (CI logs, pipes): sparse plain lines: a column's
 * line every tenth of its first pass and at each phase, and an overall line at most every
 * `PLAIN_OVERALL_MS`. Verdicts are data the sweep returns; this only narrates.
 */
import cliProgress from "cli-progress";
import type { VerdictKind } from "../probes/verdict.ts";
import {
  type ColumnProgress,
  columnBar,
  columnText,
  type LaterPhase,
  newColumn,
  overallOf,
  overallText,
  plainLine,
  type SweepProgressState,
  withCell,
  withEnd,
  withPhase,
  withStep,
} from "./progress-model.ts";

export interface ProgressSink {
  column(label: string, total: number, plan?: { repeats?: number; loops?: number }): void;
  /** A first-pass cell written (`interrupted`: left unrun by Ctrl-C, written `not-run`). */
  cell(label: string, verdict: VerdictKind, interrupted?: boolean): void;
  /** A later phase of the column starts with this many units (cells, legs, loops). */
  phase?(label: string, phase: LaterPhase, total: number): void;
  /** One unit of the column's current later phase finished. */
  step?(label: string): void;
  /** The column finished (or stopped). */
  end?(label: string): void;
  /** A notable event (`portkey@1.15.2: restarted after a crash`). */
  note(label: string, message: string): void;
  close(): void;
  /** The counts so far (the CLI's final summary reads them). */
  snapshot?(): SweepProgressState;
}

/** Non-TTY: the overall line at most this often. */
export const PLAIN_OVERALL_MS = 30_000;
/** TTY: how often the elapsed time and ETA are redrawn without an event. */
const TICK_MS = 1000;

export function createProgress(options: {
  tty: boolean;
  write: (line: string) => void;
  /** The stream the bars draw on (TTY mode); default process.stderr. */
  stream?: NodeJS.WritableStream;
  budgetMs?: number;
  now?: () => number;
}): ProgressSink {
  const now = options.now ?? Date.now;
  const columns = new Map<string, ColumnProgress>();
  const bars = new Map<string, cliProgress.SingleBar>();
  const lastTenth = new Map<string, number>();
  const startedAt = now();
  let lastOverall = startedAt;
  let closed = false;
  const state = (): SweepProgressState => ({
    startedAt,
    ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
    columns: [...columns.values()],
  });
  const multi = options.tty
    ? new cliProgress.MultiBar(
        {
          format: " {label} |{bar}| {text}",
          barsize: 20,
          hideCursor: true,
          clearOnComplete: false,
          stopOnComplete: false,
          // Each redraw writes every line again: a line left as it was drawn before a note
          // moved the bars down is what showed as a duplicated bar.
          forceRedraw: true,
          linewrap: false,
          ...(options.stream ? { stream: options.stream } : {}),
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const overall = multi?.create(1000, 0, { label: "all".padEnd(28), text: "" });
  const redrawOverall = () => {
    const t = now();
    overall?.update(Math.floor(1000 * overallOf(state(), t).fraction), {
      text: overallText(state(), t),
    });
  };
  const timer = multi ? setInterval(redrawOverall, TICK_MS) : undefined;
  timer?.unref();

  const plainOverall = (force = false) => {
    const t = now();
    if (!force && t - lastOverall < PLAIN_OVERALL_MS) return;
    lastOverall = t;
    options.write(`all: ${overallText(state(), t)}`);
  };
  const show = (col: ColumnProgress, plainToo: boolean) => {
    columns.set(col.label, col);
    const bar = bars.get(col.label);
    if (bar) {
      const { value, total } = columnBar(col);
      bar.setTotal(total);
      bar.update(value, { text: columnText(col) });
      redrawOverall();
      return;
    }
    if (!multi && plainToo) {
      options.write(plainLine(col));
      plainOverall();
    }
  };
  const update = (label: string, change: (col: ColumnProgress) => ColumnProgress) => {
    const col = columns.get(label);
    return col ? change(col) : undefined;
  };

  return {
    column(label, total, plan) {
      const col = newColumn(label, total, plan);
      columns.set(label, col);
      lastTenth.set(label, 0);
      if (multi) {
        bars.set(
          label,
          multi.create(Math.max(1, total), 0, { label: label.padEnd(28), text: columnText(col) }),
        );
        redrawOverall();
      } else options.write(`${label}: ${total} cells`);
    },
    cell(label, verdict, interrupted) {
      const col = update(label, (c) => withCell(c, verdict, interrupted));
      if (!col) return;
      const tenth = Math.floor((col.done * 10) / Math.max(1, col.cells));
      // Cells written as Ctrl-C left them are not progress: the summary counts them.
      const logged =
        !interrupted && (tenth > (lastTenth.get(label) ?? 0) || col.done === col.cells);
      if (logged) lastTenth.set(label, tenth);
      show(col, logged);
    },
    phase(label, phase, total) {
      const col = update(label, (c) => withPhase(c, phase, total));
      if (col) show(col, total > 0);
    },
    step(label) {
      const col = update(label, withStep);
      if (col) show(col, false);
    },
    end(label) {
      const col = update(label, withEnd);
      if (col) show(col, false);
    },
    note(label, message) {
      const line = `${label}: ${message}`;
      // Cleared first: a note shorter than the bar line it is written over leaves none of it.
      if (multi && !closed) multi.log(`\x1b[2K${line}\n`);
      else options.write(line);
    },
    close() {
      closed = true;
      if (timer) clearInterval(timer);
      if (multi) {
        redrawOverall();
        // Notes wait for the next redraw; stop() alone would drop the last ones.
        multi.update();
        multi.stop();
      } else if (columns.size > 0) plainOverall(true);
    },
    snapshot: state,
  };
}

/** A sink that says nothing (tests, `--json`). */
export const silentProgress: ProgressSink = {
  column() {},
  cell() {},
  note() {},
  close() {},
};
