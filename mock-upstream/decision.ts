/**
 * What the mock answers on its own, before any staged or default reply: a decision is the reply
 * spec plus what its record says of it. The mock's own errors and the provider's 404 for a path
 * it does not serve live here, shared by traffic, the Host check and the parser's refusals.
 */
import { redactPath } from "../dialects/credential-url.ts";
import { redactText } from "../dialects/credentials.ts";
import type { Dialect } from "../dialects/dialect.ts";
import { dialectModule } from "../dialects/registry.ts";
import type { RenderedBody } from "./dialect-replies.ts";
import type { RawRequest, RecordDecision } from "./record.ts";
import type { ReplySpec } from "./staged-reply-spec.ts";

export interface Decision {
  spec: ReplySpec;
  reply: RecordDecision;
  /** The body when the decision renders it itself (model lists, persona bodies). */
  body?: RenderedBody;
}

/**
 * An error the mock answers itself. Its message may quote the request (a path, a content
 * type, the parser's view of the body), so it is redacted: the reply, and its record, then
 * hold no secret the request carried.
 */
export function errorDecision(
  status: number,
  reason: string,
  message: string,
  type?: string,
): Decision {
  const redacted = redactText(message);
  return {
    spec: { status, body: { error: { message: redacted, ...(type ? { type } : {}) } } },
    reply: { status, staged: false, reason },
  };
}

/** The provider's answer to a path it does not serve (the dialect module's `notFound`). */
export function notFoundDecision(raw: RawRequest, dialect: Dialect): Decision {
  const notFound = dialectModule(dialect).notFound;
  if (notFound.kind === "error") {
    const message = notFound.message(raw.method, redactPath(raw.path));
    return errorDecision(404, "unknown-route", message, notFound.type);
  }
  const body = { text: notFound.text, contentType: notFound.contentType };
  return {
    spec: { status: 404, body },
    reply: { status: 404, staged: false, reason: "unknown-route" },
  };
}
