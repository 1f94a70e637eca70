/**
 * Bytes as every gatecheck file holds them (mock records, capture files, stored attempts,
 * exchange files): `{data, encoding}`. One rule: bytes that are valid UTF-8 are kept as their
 * text (`utf8`), anything else (gzip, a body cut mid-character, binary) as base64. So a JSON
 * body reads as JSON in the file, and no byte is ever lost to a decoder.
 */
import { isUtf8 } from "node:buffer";
import { z } from "zod";

export const BYTE_ENCODINGS = ["utf8", "base64"] as const;
export type ByteEncoding = (typeof BYTE_ENCODINGS)[number];

export interface Bytes {
  data: string;
  encoding: ByteEncoding;
}

/** RFC 4648 base64 with padding, the alphabet Node writes. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const bytesSchema = z
  .strictObject({ data: z.string(), encoding: z.enum(BYTE_ENCODINGS) })
  .refine((b) => b.encoding === "utf8" || BASE64.test(b.data), {
    message: "expected base64 data (A-Z a-z 0-9 + / with = padding)",
    path: ["data"],
  });

export const EMPTY_BYTES: Readonly<Bytes> = Object.freeze({ data: "", encoding: "utf8" });

/** The bytes in the one rule's form: their text when valid UTF-8, else base64. */
export function bytesOf(bytes: Uint8Array): Bytes {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return isUtf8(buffer)
    ? { data: buffer.toString("utf8"), encoding: "utf8" }
    : { data: buffer.toString("base64"), encoding: "base64" };
}

/** Text as bytes: its UTF-8 encoding (a string that is already the body's text). */
export function textBytes(text: string): Bytes {
  return { data: text, encoding: "utf8" };
}

/** The bytes themselves. */
export function bytesBuffer(bytes: Bytes): Buffer {
  return Buffer.from(bytes.data, bytes.encoding);
}

/** How many bytes they are (without making them). */
export function byteLength(bytes: Bytes): number {
  return Buffer.byteLength(bytes.data, bytes.encoding);
}
