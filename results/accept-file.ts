/**
 * The accepted-losses baseline for `report --junit --accept FILE`: a JSON list of losses a
 * gateway's CI has decided to live with, so only new losses fail. An entry matches a cell
 * when its gateway (name, or full column label), field and verdict are equal; `reason` is
 * the human justification and is echoed in the JUnit output.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { VERDICTS } from "../probes/verdict.ts";
import type { CellRecord } from "./records.ts";
import { ResultsError } from "./results-error.ts";
import { gatewayOfColumn } from "./run-summary.ts";

export const AcceptedLossSchema = z
  .object({
    gateway: z.string().min(1),
    field: z.string().min(1),
    verdict: z.enum(VERDICTS),
    reason: z.string().min(1),
  })
  .strict();

export const AcceptFileSchema = z.array(AcceptedLossSchema);

export type AcceptedLoss = z.infer<typeof AcceptedLossSchema>;

/** Parse an accept file's text; every problem names the file and the path inside it. */
export function parseAcceptFile(text: string, file: string): AcceptedLoss[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ResultsError("bad-accept-file", `${file}: not JSON: ${(error as Error).message}`);
  }
  const parsed = AcceptFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${file}: ${formatPath(issue.path)}: ${issue.message}`,
    );
    throw new ResultsError(
      "bad-accept-file",
      `${problems.join("\n")}\n(expected a JSON array of {gateway, field, verdict, reason})`,
    );
  }
  return parsed.data;
}

export function readAcceptFile(file: string): AcceptedLoss[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ResultsError("bad-accept-file", `${file}: ${(error as Error).message}`);
  }
  return parseAcceptFile(text, file);
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(top level)";
  return path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    .replace(/^\./, "");
}

/** The first entry accepting this cell's loss, if any. `field` is the probe's field. */
export function findAcceptance(
  accepts: readonly AcceptedLoss[],
  cell: CellRecord,
  field: string,
): AcceptedLoss | undefined {
  const gateway = gatewayOfColumn(cell.column);
  return accepts.find(
    (a) =>
      (a.gateway === gateway || a.gateway === cell.column) &&
      a.field === field &&
      a.verdict === cell.verdict,
  );
}
