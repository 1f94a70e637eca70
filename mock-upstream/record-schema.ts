/**
 * The record's schema (record.ts `MockRecord`): what a line of a record file must hold to be
 * read back, strictly, so `gatecheck check` of a record file names the line and the path
 * inside it that is wrong rather than judging a guess.
 */
import { z } from "zod";
import { DIALECTS } from "../dialects/dialect.ts";
import { describeIssues } from "../dialects/wire/issues.ts";
import { extendedReplySchema, wireRequestSchema } from "../dialects/wire/messages.ts";
import type { MockRecord } from "./record.ts";

export const mockRecordSchema = z.strictObject({
  seq: z.number().int().positive(),
  receivedAt: z.iso.datetime(),
  listener: z.string().min(1),
  request: wireRequestSchema,
  bodyBytes: z.number().int().min(0),
  bodyTruncated: z.literal(true).optional(),
  dialect: z.enum(DIALECTS).optional(),
  kind: z.enum(["generate", "models", "unknown"]).optional(),
  nonce: z.string().min(1).optional(),
  model: z.string().optional(),
  stream: z.boolean().optional(),
  reply: extendedReplySchema({
    staged: z.boolean(),
    persona: z.string().optional(),
    personaRule: z.string().optional(),
    reason: z.string().optional(),
    stagedId: z.string().optional(),
  }),
});

export class RecordFileError extends Error {
  override name = "RecordFileError";
}

/**
 * The records of a record file's text (JSONL), and every line that is not one, each as an
 * error naming the line (`source` names the file). A mock killed mid-write leaves such a line
 * (docs/mock.md, durability): the records around it are still whole.
 */
export function readRecordLines(
  text: string,
  source: string,
): { records: MockRecord[]; bad: RecordFileError[] } {
  const records: MockRecord[] = [];
  const bad: RecordFileError[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const where = `${source} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      bad.push(
        new RecordFileError(`${where} is not JSON: ${(error as Error).message}`, { cause: error }),
      );
      return;
    }
    const parsed = mockRecordSchema.safeParse(value);
    if (parsed.success) records.push(parsed.data as MockRecord);
    else
      bad.push(
        new RecordFileError(describeIssues(parsed.error, `${where} is not a mock record`), {
          cause: parsed.error,
        }),
      );
  });
  return { records, bad };
}

/** The records of a record file's text; throws the first line that is not a record. */
export function parseRecordLines(text: string, source: string): MockRecord[] {
  const { records, bad } = readRecordLines(text, source);
  if (bad[0]) throw bad[0];
  return records;
}
