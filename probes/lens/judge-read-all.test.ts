/**
 * `judgeReadAll` answers a field from the full pass where it can; its answer must be the one
 * `judgeReadField` gives on its own, for every field a probe may name, on every exchange we
 * have (and on broken variants of them: nothing forwarded, an unreadable forwarded body, an
 * unreadable upstream reply, no client response).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_DIALECTS } from "../../dialects/dialect.ts";
import { type Exchange, parseExchangeText } from "../exchange.ts";
import { FAILURE_FIELDS, REPLY_FEATURES } from "./field-names.ts";
import { readExchange } from "./judge-exchange.ts";
import { judgeRead, judgeReadField } from "./judge-read.ts";
import { fieldVerdict, judgeReadAll } from "./judge-read-all.ts";
import { REQUEST_FIELD_NAMES } from "./request-spellings.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");

function exchangeFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return exchangeFiles(path);
      if (!name.endsWith(".json")) return [];
      const text = readFileSync(path, "utf8");
      return text.includes('"clientRequest"') ? [path] : [];
    });
}

/** Every spelling and alias of every client dialect, the reply and failure fields, and odd ones. */
const ASKED = [
  ...new Set(
    CLIENT_DIALECTS.flatMap((d) =>
      Object.values(REQUEST_FIELD_NAMES[d]).flatMap((row) =>
        row ? [row.field, ...(row.aliases ?? [])] : [],
      ),
    ),
  ),
  ...REPLY_FEATURES,
  ...FAILURE_FIELDS,
  "headers.user-agent",
  "headers.anthropic-beta",
  "headers.x-not-judged-by-default",
  "path",
  "upstream",
  "credentials.header.x-api-key",
  "credentials.header.authorization",
  "no_such_field",
];

/** Broken variants: what each side can lack or garble. */
function variants(e: Exchange): [string, Exchange][] {
  const out: [string, Exchange][] = [["as recorded", e]];
  out.push(["nothing forwarded", { ...e, forwarded: [] }]);
  const [first, ...rest] = e.forwarded;
  if (first) {
    const garbled = { ...first, body: "not json {", rawBody: "not json {" };
    out.push(["unreadable forwarded body", { ...e, forwarded: [garbled, ...rest] }]);
  }
  if (e.upstreamReply) {
    const upstreamReply = { ...e.upstreamReply, body: "not json {" };
    out.push(["unreadable upstream reply", { ...e, upstreamReply }]);
  }
  const { clientResponse: _drop, ...noResponse } = e;
  out.push(["no client response", noResponse]);
  return out;
}

describe("judgeReadAll", () => {
  const files = exchangeFiles(FIXTURES);

  it("finds the exchange fixtures", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  for (const path of files) {
    const name = path.slice(FIXTURES.length + 1);
    it(`answers every field as judgeReadField does: ${name}`, () => {
      const exchange = parseExchangeText(readFileSync(path, "utf8"), name);
      let fromFullPass = 0;
      for (const [what, e] of variants(exchange)) {
        // One read per variant, as the sweep does (judging never changes what was read).
        const read = readExchange(e);
        const all = judgeRead(read);
        const fields = new Set([...ASKED, ...all.map((v) => v.field)]);
        for (const field of fields) {
          const answer = fieldVerdict(read, all, field);
          expect(answer, `${what}: ${field}`).toEqual(judgeReadField(read, field));
          if (all.includes(answer)) fromFullPass += 1;
        }
        const probeField = all[0]?.field ?? "model";
        const both = judgeReadAll(read, probeField);
        expect(both.verdicts).toEqual(all);
        expect(both.verdict).toEqual(judgeReadField(read, probeField));
      }
      // The point of it: most answers come from the full pass, not a second judgement.
      expect(fromFullPass).toBeGreaterThan(0);
    });
  }

  it("judges again where the full pass names the field otherwise (an alias beside a bad twin)", () => {
    // Chat `max_tokens` is read; its alias `max_completion_tokens` holds a value no reader
    // takes, so it is an unknown key too. Asked by the alias, the single question judges the
    // attribute (renamed); the full pass's verdict by that name is the unknown key's.
    const body = {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 5,
      max_completion_tokens: "many",
    };
    const forwardedBody = {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 5,
    };
    const exchange = parseExchangeText(
      JSON.stringify({
        route: { client: "openai-chat", backend: "anthropic-messages" },
        mode: "non-stream",
        clientRequest: { path: "/v1/chat/completions", body },
        forwarded: [{ path: "/v1/messages", body: JSON.stringify(forwardedBody) }],
      }),
    );
    const read = readExchange(exchange);
    const all = judgeRead(read);
    const field = "max_completion_tokens";
    expect(all.find((v) => v.field === field)?.verdict).toBe("dropped");
    const alone = judgeReadField(read, field);
    expect(alone.verdict).toBe("preserved");
    expect(fieldVerdict(read, all, field)).toEqual(alone);
  });
});
