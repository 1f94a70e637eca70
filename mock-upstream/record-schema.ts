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

/** The records of a record file's text (JSONL); `source` names it in errors. */
export function parseRecordLines(text: string, source: string): MockRecord[] {
  const records: MockRecord[] = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const where = `${source} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new RecordFileError(`${where} is not JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const parsed = mockRecordSchema.safeParse(value);
    if (!parsed.success)
      throw new RecordFileError(describeIssues(parsed.error, `${where} is not a mock record`), {
        cause: parsed.error,
      });
    records.push(parsed.data as MockRecord);
  });
  return records;
}
