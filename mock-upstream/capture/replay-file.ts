/**
 * Reading a capture file: JSONL, one exchange per line, blank lines allowed. Every line is
 * validated; an error names the file, the line, the path inside the exchange and what was
 * expected, and nothing of a bad file is used. A line in the format before the wire
 * vocabulary (`"format":"gatecheck-exchange/1"`) is read through legacy-capture.ts.
 */
import { readFile } from "node:fs/promises";
import { CaptureError } from "./capture-error.ts";
import { Exchange } from "./exchange.ts";
import { fromLegacyCapture, LEGACY_CAPTURE_FORMAT, LegacyExchange } from "./legacy-capture.ts";

function readLine(value: unknown) {
  const legacy = (value as { format?: unknown } | null)?.format === LEGACY_CAPTURE_FORMAT;
  if (!legacy) return Exchange.safeParse(value);
  const old = LegacyExchange.safeParse(value);
  return old.success ? { success: true as const, data: fromLegacyCapture(old.data) } : old;
}

export function parseCapture(text: string, file: string): Exchange[] {
  const exchanges: Exchange[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const lineNo = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new CaptureError(
        "invalid-json",
        `${file}:${lineNo}: expected one JSON exchange per line: ${(error as Error).message}`,
        file,
        lineNo,
      );
    }
    const parsed = readLine(value);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.length ? issue.path.join(".") : "(exchange)"}: ${issue.message}`,
      );
      throw new CaptureError(
        "invalid-exchange",
        `${file}:${lineNo}: not a capture exchange: ${problems.join("; ")}`,
        file,
        lineNo,
      );
    }
    exchanges.push(parsed.data);
  });
  if (exchanges.length === 0) {
    throw new CaptureError("empty-capture", `${file}: no exchanges in the capture file`, file);
  }
  return exchanges;
}

export async function loadCaptureFile(file: string): Promise<Exchange[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CaptureError(
      "unreadable-file",
      `${file}: cannot read capture file: ${(error as Error).message}`,
      file,
    );
  }
  return parseCapture(text, file);
}
