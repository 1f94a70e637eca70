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
  /** The decompressed text after redaction. */
  redacted: string;
  /** Whether the decompressed bytes are UTF-8. */
  utf8: boolean;
}

/**
 * Why a body sent with this `content-encoding` is not read through its decoded bytes
 * (`redactCompressed` gave undefined), for an error that says so; undefined when the coding
 * is `identity` or decodes. Node 20's zlib has no zstd: it came, experimental, in Node 22.15.
 * @see https://nodejs.org/docs/latest-v22.x/api/zlib.html#zlibzstddecompresssyncbuffer-options
 */
export function codingProblem(bytes: Buffer, contentEncoding: string): string | undefined {
  const coding = contentEncoding.trim().toLowerCase();
  if (coding === "" || coding === "identity") return undefined;
  const named = JSON.stringify(contentEncoding);
  if (coding.includes(",")) {
    return `content-encoding ${named} stacks codings; one of gzip, deflate or br is decoded`;
  }
  if (coding === "zstd") {
    return "content-encoding zstd cannot be decoded: node:zlib on Node 20 has gzip, deflate and br but no zstd (it came in Node 22.15)";
  }
  if (!Object.hasOwn(CODINGS, coding)) {
    return `content-encoding ${named} is not one that is decoded (gzip, deflate, br)`;
  }
  try {
    CODINGS[coding as Coding].decode(bytes);
  } catch (error) {
    return `the body does not decode as ${coding}: ${(error as Error).message}`;
  }
  return undefined;
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
  const utf8 = encoding === "utf8";
  if (redacted === text) return { bytes, text, redacted, utf8 };
  return { bytes: CODINGS[coding].encode(Buffer.from(redacted, encoding)), text, redacted, utf8 };
}
