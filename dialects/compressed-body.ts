/**
 * Bodies sent compressed (`content-encoding: gzip`, `deflate`, `br`): a key inside is
 * invisible to a scan of the wire bytes, so redaction decompresses, redacts the text, and
 * keeps the wire bytes when nothing was found, or stores the redacted text compressed again
 * with the same coding (the stored bytes then differ from the wire's, and hold no secret).
 */
import { isUtf8 } from "node:buffer";
import {
  brotliCompressSync,
  brotliDecompressSync,
  deflateSync,
  gunzipSync,
  gzipSync,
  inflateSync,
} from "node:zlib";

/** A decompressed body larger than this is not redacted by decoding (a zip bomb). */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;

/** @see https://www.rfc-editor.org/rfc/rfc9110#name-content-codings */
const CODINGS = {
  gzip: {
    decode: (b: Buffer) => gunzipSync(b, { maxOutputLength: MAX_DECODED_BYTES }),
    encode: (b: Buffer) => gzipSync(b),
  },
  "x-gzip": {
    decode: (b: Buffer) => gunzipSync(b, { maxOutputLength: MAX_DECODED_BYTES }),
    encode: (b: Buffer) => gzipSync(b),
  },
  deflate: {
    decode: (b: Buffer) => inflateSync(b, { maxOutputLength: MAX_DECODED_BYTES }),
    encode: (b: Buffer) => deflateSync(b),
  },
  br: {
    decode: (b: Buffer) => brotliDecompressSync(b, { maxOutputLength: MAX_DECODED_BYTES }),
    encode: (b: Buffer) => brotliCompressSync(b),
  },
} as const;

type Coding = keyof typeof CODINGS;

function codingOf(contentEncoding: string | undefined): Coding | undefined {
  const coding = contentEncoding?.trim().toLowerCase();
  return coding !== undefined && Object.hasOwn(CODINGS, coding) ? (coding as Coding) : undefined;
}

export interface RedactedCompressed {
  /** The wire bytes when the redaction changed nothing, else the redacted text recompressed. */
  bytes: Buffer;
  /** The decompressed text before redaction (UTF-8, or latin1 when not UTF-8). */
  text: string;
}

/**
 * A compressed body, redacted through its decoded text; undefined when the body is not
 * compressed with one known coding or does not decode (then it is redacted as bytes).
 */
export function redactCompressed(
  bytes: Buffer,
  contentEncoding: string | undefined,
  redact: (text: string) => string,
): RedactedCompressed | undefined {
  const coding = codingOf(contentEncoding);
  if (coding === undefined || bytes.length === 0) return undefined;
  let plain: Buffer;
  try {
    plain = CODINGS[coding].decode(bytes);
  } catch {
    return undefined;
  }
  const encoding = isUtf8(plain) ? "utf8" : "latin1";
  const text = plain.toString(encoding);
  const redacted = redact(text);
  if (redacted === text) return { bytes, text };
  return { bytes: CODINGS[coding].encode(Buffer.from(redacted, encoding)), text };
}
