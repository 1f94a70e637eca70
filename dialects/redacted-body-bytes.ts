/**
 * A body's bytes redacted as a whole, whatever they hold: a compressed body through its
 * decoded text (compressed-body.ts), any other as latin1 text, which maps each byte to one
 * character and back (a UTF-8 body's multi-byte characters stay as they were) and holds every
 * key shape, since those are ASCII. Both a client's responses (sweep/attempt.ts) and the
 * mock's staged replies (mock-upstream/reply-bytes.ts) are stored this way.
 */

import { redactBody } from "./body-redaction.ts";
import { redactCompressed } from "./compressed-body.ts";

export function redactedBodyBytes(
  body: Buffer,
  contentEncoding: string | undefined,
  secrets: readonly string[] = [],
): Buffer {
  const redact = (text: string) => redactBody(text, secrets);
  const compressed = redactCompressed(body, contentEncoding, redact);
  if (compressed) return compressed.bytes;
  const text = body.toString("latin1");
  const redacted = redact(text);
  return redacted === text ? body : Buffer.from(redacted, "latin1");
}
