/**
 * The request that takes a heavy staged canonical body (one whose render held the event loop
 * when it was staged, render-check.ts) renders it off the request path: the render runs in
 * slices that give the event loop back between them, and the redaction of its body for the
 * record and the escaping of that body into the record's line each run in a turn of their
 * own. Other requests are answered in between. The record is still made, whole, before the
 * first byte of the reply goes out: this only moves the work before it into later turns.
 * A staged body that renders quickly never comes here.
 */
import { headerValue } from "./record.ts";
import { driveYielding, isHeavyBody, nextTurn } from "./render-check.ts";
import { replyBytes } from "./reply-bytes.ts";
import { planReply, type ReplyContext, renderReplySlices } from "./reply-engine.ts";
import type { ReplySpec } from "./staged-reply-spec.ts";
import type { WireReply } from "./wire-plan.ts";

/** Whether taking this staged reply should render it off the request path. */
export function isHeavyReply(spec: ReplySpec): boolean {
  const body = spec.body;
  return body !== undefined && "canonical" in body && isHeavyBody(body);
}

/**
 * The wire plan of a heavy staged reply, with the record's bytes of its body made ready
 * (redacted and escaped, cached by reply-bytes.ts), so recording it afterwards is cheap.
 */
export async function planHeavyReply(spec: ReplySpec, ctx: ReplyContext): Promise<WireReply> {
  await nextTurn();
  await driveYielding(renderReplySlices(spec, ctx));
  // The body is now in the render cache, where `planReply` finds it.
  await nextTurn();
  const wire = await planReply(spec, ctx);
  await nextTurn();
  const bytes = replyBytes(wire.frames, {
    contentEncoding: headerValue(wire.headers, "content-encoding"),
  });
  await nextTurn();
  void bytes.bodyJsonText;
  await nextTurn();
  void bytes.bodyJson;
  return wire;
}
