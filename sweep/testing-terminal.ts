/**
 * A small terminal screen for tests of what the progress display draws: it plays the
 * escape sequences cli-progress and Node's readline write (cursor up/down/column, clear
 * line, clear below) onto a grid of lines, so a test reads what a person would see.
 */
import { PassThrough } from "node:stream";

const ESCAPE = /\x1b\[(\??)(\d*)([A-Za-z])|\x1b[78]|\n|\r|[^\x1b\n\r]/gu;

export function playScreen(text: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = () => {
    while (lines.length <= row) lines.push([]);
    return lines[row] as string[];
  };
  for (const m of text.matchAll(ESCAPE)) {
    const [token, private_, n, op] = m;
    if (token === "\n") {
      row += 1;
      col = 0;
    } else if (token === "\r") col = 0;
    else if (op && !private_) {
      const count = n === "" ? 1 : Number(n);
      if (op === "A") row = Math.max(0, row - count);
      else if (op === "B") row += count;
      else if (op === "C") col += count;
      else if (op === "D") col = Math.max(0, col - count);
      else if (op === "G") col = count - 1;
      else if (op === "K") {
        const l = line();
        if (n === "2") l.length = 0;
        else if (n === "" || n === "0") l.length = Math.min(l.length, col);
      } else if (op === "J") {
        line().length = Math.min(line().length, col);
        lines.length = row + 1;
      }
    } else if (!op && token.length === 1) {
      const l = line();
      while (l.length < col) l.push(" ");
      l[col] = token;
      col += 1;
    }
  }
  return lines.map((l) => l.join("").trimEnd());
}

/** A stream that says it is a terminal; what is written to it is kept. */
export function fakeTerminal(columns = 200) {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns });
  let text = "";
  stream.on("data", (d) => {
    text += d;
  });
  return { stream: stream as unknown as NodeJS.WritableStream, written: () => text };
}
