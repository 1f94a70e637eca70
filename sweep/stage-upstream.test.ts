import { describe, expect, it } from "vitest";
import { DIALECTS } from "../dialects/dialect.ts";
import { parseStagedReply } from "../mock-upstream/staged-reply-spec.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { StageError, stageableFor, stagedReplyFor } from "./stage-upstream.ts";

const NONCE = "gc-0123456789abcdef";

describe("stagedReplyFor", () => {
  it("gives the mock a spec it accepts for every corpus probe and backend it applies to", () => {
    const rejected: string[] = [];
    for (const probe of CORPUS) {
      for (const backend of probe.backends ?? DIALECTS) {
        if (!stageableFor(probe, backend)) continue;
        const spec = stagedReplyFor(probe, NONCE, backend);
        if (spec === undefined) continue;
        const parsed = parseStagedReply(spec);
        if (!parsed.ok) rejected.push(`${probe.id} -> ${backend}: ${parsed.error}`);
      }
    }
    expect(rejected).toEqual([]);
  });

  it("binds the reply to the nonce and serves retries the same answer", () => {
    const probe: Probe = {
      id: "oc-test-error",
      client: "openai-chat",
      axis: "error",
      field: "error.status",
      request: {},
      upstream: { error: { status: 503, message: "overloaded", shape: "string" } },
      modes: ["non-stream"],
      severity: "high",
      note: "test",
    };
    expect(stagedReplyFor(probe, NONCE, "openai-chat")).toEqual({
      match: { nonce: NONCE },
      times: "always",
      reply: { status: 503, body: { error: { message: "overloaded", shape: "string" } } },
    });
  });

  it("refuses a raw reply for a backend it has none for", () => {
    const probe: Probe = {
      id: "oc-test-raw",
      client: "openai-chat",
      axis: "response",
      field: "text",
      request: {},
      upstream: { raw: { "openai-chat": { status: 200, body: "{}" } } },
      modes: ["non-stream"],
      severity: "low",
      note: "test",
    };
    expect(stageableFor(probe, "gemini")).toBe(false);
    expect(() => stagedReplyFor(probe, NONCE, "gemini")).toThrow(StageError);
    expect(stagedReplyFor(probe, NONCE, "openai-chat")).toMatchObject({
      reply: { body: { raw: "{}" } },
    });
  });
});
