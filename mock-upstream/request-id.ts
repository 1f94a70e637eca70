/**
 * The request id header a provider puts on every reply (OpenAI's `x-request-id`,
 * Anthropic's `request-id`), so a gateway that forwards or logs it can be checked. Each reply
 * gets its own: a random prefix per listener and the record's sequence number, so the id in
 * a client's hands leads to exactly one record.
 */
import { randomBytes } from "node:crypto";
import type { Dialect } from "../dialects/dialect.ts";
import { dialectModule } from "../dialects/registry.ts";
import type { WireReply } from "./wire-plan.ts";

/** 16 random hex digits, drawn once per listener. */
export function requestIdPrefix(): string {
  return randomBytes(8).toString("hex");
}

/**
 * The plan with the dialect's request id set (a shallow copy: plans are shared; the headers
 * list stays the plan's own), unless the dialect has none, the reply never sends headers,
 * or a staged reply set the header itself.
 */
export function withRequestId(
  wire: WireReply,
  dialect: Dialect,
  prefix: string,
  seq: number,
): WireReply {
  const spec = dialectModule(dialect).requestId;
  if (!spec || wire.before !== undefined) return wire;
  const name = spec.header;
  for (const [k] of wire.headers) {
    if (k.length === name.length && k.toLowerCase() === name) return wire;
  }
  const id = spec.format(prefix + seq.toString(16).padStart(16, "0"));
  return withHeader(wire, [name, id]);
}

/**
 * The plan with `requestId` set, copied field by field in the plan's own key order: V8
 * makes `{ ...wire, requestId }` (a spread, then a key) slowly, about 1 µs a reply against
 * 0.07 for this. request-id.test.ts holds it to the spread.
 */
export function withHeader(wire: WireReply, requestId: readonly [string, string]): WireReply {
  const copy: WireReply = {
    status: wire.status,
    headers: wire.headers,
    frames: wire.frames,
    headersDelayMs: wire.headersDelayMs,
    ending: wire.ending,
    transfer: wire.transfer,
  };
  if (wire.before !== undefined) copy.before = wire.before;
  if (wire.declaredLength !== undefined) copy.declaredLength = wire.declaredLength;
  copy.requestId = requestId;
  return copy;
}
