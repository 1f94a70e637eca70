/**
 * The request id's copy of a plan (withHeader) against the plain spread it stands in for:
 * the same keys, in the same order, with the same values, for every shape of plan.
 */
import { describe, expect, it } from "vitest";
import { withHeader, withRequestId } from "./request-id.ts";
import type { WireReply } from "./wire-plan.ts";

const base: WireReply = {
  status: 200,
  headers: [["content-type", "application/json"]],
  frames: [{ bytes: Buffer.from("{}"), delayMs: 0 }],
  headersDelayMs: 0,
  ending: "complete",
  transfer: "content-length",
};

const plans: WireReply[] = [
  base,
  { ...base, declaredLength: 2 },
  { ...base, before: "hang", declaredLength: 2 },
  { ...base, before: "reset" },
  { ...base, ending: "close", transfer: "chunked", headersDelayMs: 30, declaredLength: 9 },
  { ...base, requestId: ["x-request-id", "req_old"] },
];

describe("withHeader", () => {
  it("is the spread with the request id, key for key and in order", () => {
    const id = ["x-request-id", "req_new"] as const;
    for (const plan of plans) {
      const spread = { ...plan, requestId: id };
      const copy = withHeader(plan, id);
      expect(Object.keys(copy)).toEqual(Object.keys(spread));
      expect(copy).toStrictEqual(spread);
      expect(copy.headers).toBe(plan.headers);
      expect(copy.frames).toBe(plan.frames);
    }
  });

  it("covers every key a plan has (a key added to WireReply must be copied too)", () => {
    const full: Required<WireReply> = {
      ...base,
      declaredLength: 2,
      before: "hang",
      requestId: ["request-id", "req_011Cold"],
    };
    expect(Object.keys(withHeader(full, ["request-id", "x"])).sort()).toEqual(
      Object.keys(full).sort(),
    );
  });

  it("gives an OpenAI reply its x-request-id and leaves one the staged reply set", () => {
    const wire = withRequestId(base, "openai-chat", "0123456789abcdef", 255);
    expect(wire.requestId).toEqual(["x-request-id", "req_0123456789abcdef00000000000000ff"]);
    const own: WireReply = { ...base, headers: [["X-Request-Id", "mine"]] };
    expect(withRequestId(own, "openai-chat", "0123456789abcdef", 1)).toBe(own);
  });
});
