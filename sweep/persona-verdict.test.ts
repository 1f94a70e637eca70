import { describe, expect, it } from "vitest";
import { subjectOf } from "../probes/subject.ts";
import type { Verdict } from "../probes/verdict.ts";
import type { ForwardedRecord } from "./exchange-from-wire.ts";
import { personaRejection, withPersonaRejection } from "./persona-verdict.ts";

const record = (reply: ForwardedRecord["reply"]): ForwardedRecord => ({
  method: "POST",
  path: "/v1/chat/completions",
  query: "",
  headers: [],
  rawBody: "{}",
  bodyEncoding: "utf8",
  ...(reply ? { reply } : {}),
});

const MOONSHOT = record({
  status: 400,
  persona: "moonshot",
  personaRule: "moonshot/tool-call-content-present",
  body: JSON.stringify({
    error: {
      message: "Invalid request: the message at position 1 with role 'assistant' must not be empty",
      type: "invalid_request_error",
    },
  }),
  bodyEncoding: "utf8",
});

const lens: Verdict = {
  subject: subjectOf("openai-chat", "tool_calls"),
  field: "tool_calls",
  verdict: "rejected",
  reason: "client got 400",
};
const judged = { verdicts: [lens], verdict: lens };

describe("a strict provider's rejection", () => {
  it("names the provider, its rule, its message and the rule's first citation", () => {
    const rejection = personaRejection([record({ status: 200 }), MOONSHOT]);
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
      persona: "google",
      personaRule: "google/unknown-field",
      body: JSON.stringify([
        { error: { code: 400, message: 'Unknown name "store": Cannot find field.' } },
      ]),
    });
    expect(personaRejection([google])?.message).toBe('Unknown name "store": Cannot find field.');
  });

  it("becomes the probe's verdict, in place, when the client got the failure", () => {
    const out = withPersonaRejection(judged, [MOONSHOT], 400);
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
    expect(withPersonaRejection(judged, [MOONSHOT], 200)).toBe(judged);
    expect(withPersonaRejection(judged, [record({ status: 400, persona: "openai" })], 400)).toBe(
      judged,
    );
  });
});
