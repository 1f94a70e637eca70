import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CanonicalReply, CanonicalRequest } from "../../dialects/canonical.ts";
import { CLIENT_DIALECTS, isDialect } from "../../dialects/dialect.ts";
import { readReply, writeReply } from "../../dialects/reply.ts";
import { readRequest, requestPath, writeRequest } from "../../dialects/request.ts";
import { isReplyFeature, REQUEST_ATTRIBUTES, type RequestAttribute } from "./field-names.ts";
import { replyFeaturesOf } from "./judge-reply.ts";
import { carries } from "./judge-request.ts";
import { NO_EQUIVALENT, noEquivalent } from "./no-equivalent.ts";

const SPELLINGS = join(import.meta.dirname, "fixtures", "spellings");
const samples: CanonicalRequest[] = CLIENT_DIALECTS.map((d) =>
  readRequest(d, JSON.parse(readFileSync(join(SPELLINGS, `${d}.json`), "utf8"))),
);

const fullReply: CanonicalReply = {
  dialect: "anthropic-messages",
  id: "msg_1",
  parts: [
    { type: "thinking", text: "plan", signature: "sig-1" },
    { type: "text", text: "done" },
  ],
  stopReason: "stop_sequence",
  stopSequence: "STOPPROBE",
  usage: {
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 3,
    cacheWriteTokens: 4,
    reasoningTokens: 2,
  },
  extras: {},
};

describe("the no-equivalent table", () => {
  it("has a reason, a doc link and a known subject in every row, and no duplicate", () => {
    const keys = new Set<string>();
    for (const row of NO_EQUIVALENT) {
      expect(isDialect(row.target)).toBe(true);
      expect(row.reason.length).toBeGreaterThan(5);
      expect(row.see).toMatch(/^https:\/\//);
      const known =
        row.direction === "reply"
          ? isReplyFeature(row.subject)
          : (REQUEST_ATTRIBUTES as readonly string[]).includes(row.subject) ||
            row.subject.startsWith("headers.");
      expect(known, row.subject).toBe(true);
      const key = `${row.direction} ${row.subject} ${row.target}`;
      expect(keys.has(key), key).toBe(false);
      keys.add(key);
      expect(noEquivalent(row.direction, row.subject, row.target)).toBe(row);
    }
  });

  // The dialect writers are the "perfect translation": if even they cannot carry the
  // attribute into the target, the target has nowhere to put it.
  for (const row of NO_EQUIVALENT.filter(
    (r) => r.direction === "request" && !r.subject.startsWith("headers."),
  )) {
    it(`request ${row.subject} → ${row.target}: the perfect writer cannot carry it either`, () => {
      const attribute = row.subject as RequestAttribute;
      const source = samples.find((s) => carries(attribute, s));
      expect(source, `a sample carrying ${attribute}`).toBeDefined();
      const request = source as CanonicalRequest;
      const written = writeRequest(row.target, request);
      const back = readRequest(row.target, written, { path: requestPath(row.target, request) });
      expect(carries(attribute, back)).toBe(false);
    });
  }

  for (const row of NO_EQUIVALENT.filter((r) => r.direction === "reply")) {
    it(`reply ${row.subject} → ${row.target}: the perfect writer cannot carry it either`, () => {
      expect(replyFeaturesOf(fullReply, 200, "non-stream")).toContain(row.subject);
      const body = JSON.stringify(writeReply(row.target, { ...fullReply, dialect: row.target }));
      const back = readReply(row.target, { status: 200, body }, "non-stream");
      expect(replyFeaturesOf(back, 200, "non-stream")).not.toContain(row.subject);
    });
  }
});
