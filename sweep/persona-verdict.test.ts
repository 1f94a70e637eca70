import { describe, expect, it } from "vitest";
import { textBytes } from "../dialects/wire/bytes.ts";
import { forwardedSide, type RecordedForward } from "../dialects/wire/forwarded-side.ts";
import { subjectOf } from "../probes/subject.ts";
import type { Verdict } from "../probes/verdict.ts";
import { personaRejection, withPersonaRejection } from "./persona-verdict.ts";

const record = (reply: RecordedForward["reply"]): RecordedForward => ({
  request: { method: "POST", path: "/v1/chat/completions", headers: [], body: textBytes("{}") },
  ...(reply ? { reply } : {}),
});

const MOONSHOT = record({
  status: 400,
  headers: [],
  persona: "moonshot",
  personaRule: "moonshot/tool-call-content-present",
  body: textBytes(
    JSON.stringify({
      error: {
        message:
          "Invalid request: the message at position 1 with role 'assistant' must not be empty",
        type: "invalid_request_error",
      },
    }),
  ),
});

/** The rejection an attempt's exchange carries in its context, from the mock's records. */
const rejectionOf = (records: RecordedForward[]) => forwardedSide(records).rejection;

const lens: Verdict = {
  subject: subjectOf("openai-chat", "tool_calls"),
  field: "tool_calls",
  verdict: "rejected",
  reason: "client got 400",
};
const judged = { verdicts: [lens], verdict: lens };

describe("a strict provider's rejection", () => {
  it("names the provider, its rule, its message and the rule's first citation", () => {
    const rejection = personaRejection(
      rejectionOf([record({ status: 200, headers: [] }), MOONSHOT]),
    );
    expect(rejection).toMatchObject({
      persona: "moonshot",
      rule: "moonshot/tool-call-content-present",
      message: "Invalid request: the message at position 1 with role 'assistant' must not be empty",
    });
    expect(rejection?.see).toMatch(/^https:\/\//);
  });

  it("reads Google's array-shaped error body", () => {
    const google = record({
      status: 400,
      headers: [],
      persona: "google",
      personaRule: "google/unknown-field",
      body: textBytes(
        JSON.stringify([
          { error: { code: 400, message: 'Unknown name "store": Cannot find field.' } },
        ]),
      ),
    });
    expect(rejectionOf([google])?.message).toBe('Unknown name "store": Cannot find field.');
  });

  it("becomes the probe's verdict, in place, when the client got the failure", () => {
    const out = withPersonaRejection(judged, rejectionOf([MOONSHOT]), 400);
    expect(out.verdict).toMatchObject({
      verdict: "rejected",
      cause: "strict-provider",
      field: "tool_calls",
    });
    expect(out.verdict.reason).toMatch(
      /^moonshot rejected what the gateway forwarded \(rule moonshot\/tool-call-content-present: "Invalid request: .*"; see https:\/\/.*\); the client got 400$/,
    );
    expect(out.verdicts).toEqual([out.verdict]);
  });

  it("leaves the lens's verdict when the client got a success, or no persona answered", () => {
    expect(withPersonaRejection(judged, rejectionOf([MOONSHOT]), 200)).toBe(judged);
    const unruled = rejectionOf([record({ status: 400, headers: [], persona: "openai" })]);
    expect(unruled).toBeUndefined();
    expect(withPersonaRejection(judged, unruled, 400)).toBe(judged);
  });
});
