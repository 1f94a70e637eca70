/**
 * A record as its JSONL line, the one form the recorder keeps: the file gets the line, and
 * memory keeps the same line rather than the record's object tree. A kept object tree
 * (headers, parsed body, reply) is dozens of small objects the garbage collector traces and
 * copies on every collection; a line is one string it never looks inside. Reading a record
 * back parses its line, which gives the record by value.
 */
import type { MockRecord } from "./record.ts";

/**
 * A record's line, ending in `\n`: one string, or the text around a reply body that is
 * shared with every other record of the same cached reply (reply-bytes.ts), so a
 * 236 KB stream is neither escaped again nor copied once per request.
 */
export type RecordLine = string | readonly [head: string, body: Buffer, tail: string];

/**
 * The line of a record whose reply body's data is given pre-serialized: everything before
 * `reply.body.data`, the data, and the rest. `reply` is the record's last key and `body` the
 * reply's last, `{data, encoding}` in that order (traffic-record.ts builds them so), which is
 * what makes the joined parts byte-equal to `JSON.stringify(record)`; when that does not
 * hold, undefined.
 */
export function recordLineParts(
  record: MockRecord,
  bodyJson: Buffer,
): [string, Buffer, string] | undefined {
  const keys = Object.keys(record);
  const replyKeys = Object.keys(record.reply);
  const bodyKeys = Object.keys(record.reply.body);
  if (
    keys[keys.length - 1] !== "reply" ||
    replyKeys[replyKeys.length - 1] !== "body" ||
    bodyKeys.join() !== "data,encoding"
  ) {
    return undefined;
  }
  const { body, ...replyHead } = record.reply;
  const head = JSON.stringify({ ...record, reply: replyHead });
  // head ends with the reply's and the record's closing braces.
  return [
    `${head.slice(0, -2)},"body":{"data":`,
    bodyJson,
    `,"encoding":${JSON.stringify(body.encoding)}}}}\n`,
  ];
}

/** Below this a reply body is cheaper to serialize with the rest of the record. */
const SPLICE_FROM_BYTES = 2048;

/** The line of a record; `replyBodyJson` is `JSON.stringify(record.reply.body.data)` encoded. */
export function recordLine(record: MockRecord, replyBodyJson?: Buffer): RecordLine {
  const parts =
    replyBodyJson && replyBodyJson.length >= SPLICE_FROM_BYTES
      ? recordLineParts(record, replyBodyJson)
      : undefined;
  return parts ?? `${JSON.stringify(record)}\n`;
}

/** The line as text, without its closing `\n`: exactly `JSON.stringify(record)`. */
export function lineJson(line: RecordLine): string {
  if (typeof line === "string") return line.slice(0, -1);
  return `${line[0]}${line[1].toString("utf8")}${line[2].slice(0, -1)}`;
}

export function parseLine(line: RecordLine): MockRecord {
  return JSON.parse(lineJson(line)) as MockRecord;
}

/**
 * What keeping the line costs this record alone, in UTF-16 code units or bytes: the shared
 * body is counted once per record too, so a memory cap in these units is never exceeded.
 */
export function lineSize(line: RecordLine): number {
  return typeof line === "string" ? line.length : line[0].length + line[1].length + line[2].length;
}
