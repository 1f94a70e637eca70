/**
 * What the sweep tells a person while it runs. On a TTY: one live bar per gateway column
 * (cells done / total, findings so far, cells not measured so far) and a line for time left.
 * A finding is a silent defect or a rejection; a cell not run or in error is not measured,
 * never counted as a finding (the control column's planned-but-not-run fallback cells are no
 * defect of the rig). Elsewhere (CI logs,
 * pipes): plain lines, one per column every tenth of its cells and at its end, so a log
 * stays readable. Verdicts are data the sweep returns; this only narrates.
 */
import cliProgress from "cli-progress";
import { VERDICT_CLASS, type VerdictKind } from "../probes/verdict.ts";

export interface ProgressSink {
  column(label: string, total: number): void;
  cell(label: string, verdict: VerdictKind): void;
  /** A phase change or a notable event (`portkey@1.15.2: restarted after a crash`). */
  note(label: string, message: string): void;
  close(): void;
}

interface ColumnState {
  total: number;
  done: number;
  findings: number;
  notMeasured: number;
  lastLoggedTenth: number;
  bar?: cliProgress.SingleBar;
}

export function createProgress(options: {
  tty: boolean;
  write: (line: string) => void;
  timeLeftMs?: () => number;
}): ProgressSink {
  const columns = new Map<string, ColumnState>();
  const multi = options.tty
    ? new cliProgress.MultiBar(
        {
          format:
            " {label} |{bar}| {value}/{total} cells, {findings} findings, {notMeasured} not measured {extra}",
          hideCursor: true,
          clearOnComplete: false,
          stopOnComplete: false,
          etaBuffer: 50,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const timer =
    multi && options.timeLeftMs
      ? setInterval(() => {
          for (const state of columns.values()) state.bar?.update({ extra: timeLeft(options) });
        }, 1000)
      : undefined;
  timer?.unref();

  return {
    column(label, total) {
      const state: ColumnState = {
        total,
        done: 0,
        findings: 0,
        notMeasured: 0,
        lastLoggedTenth: 0,
      };
      if (multi) {
        state.bar = multi.create(total, 0, {
          label: label.padEnd(28),
          findings: 0,
          notMeasured: 0,
          extra: timeLeft(options),
        });
      } else {
        options.write(`${label}: ${total} cells`);
      }
      columns.set(label, state);
    },
    cell(label, verdict) {
      const state = columns.get(label);
      if (!state) return;
      state.done += 1;
      const cls = VERDICT_CLASS[verdict];
      if (cls === "silent" || cls === "loud") state.findings += 1;
      if (cls === "not-a-finding") state.notMeasured += 1;
      if (state.bar) {
        state.bar.update(state.done, { findings: state.findings, notMeasured: state.notMeasured });
        return;
      }
      const tenth = Math.floor((state.done * 10) / Math.max(1, state.total));
      if (tenth > state.lastLoggedTenth || state.done === state.total) {
        state.lastLoggedTenth = tenth;
        options.write(
          `${label}: ${state.done}/${state.total} cells, ${state.findings} finding${state.findings === 1 ? "" : "s"}, ${state.notMeasured} not measured${timeLeft(options)}`,
        );
      }
    },
    note(label, message) {
      const line = `${label}: ${message}`;
      if (multi) multi.log(`${line}\n`);
      else options.write(line);
    },
    close() {
      if (timer) clearInterval(timer);
      multi?.stop();
    },
  };
}

function timeLeft(options: { timeLeftMs?: () => number }): string {
  if (!options.timeLeftMs) return "";
  const seconds = Math.round(options.timeLeftMs() / 1000);
  return `, ${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s left`;
}

/** A sink that says nothing (tests, `--json`). */
export const silentProgress: ProgressSink = {
  column() {},
  cell() {},
  note() {},
  close() {},
};
