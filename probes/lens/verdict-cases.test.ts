import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ClientDialect, Dialect } from "../../dialects/dialect.ts";
import { parseExchange } from "../exchange.ts";
import { judgeField } from "./judge-exchange.ts";

/**
 * Wrong verdicts a user once saw, each a pair of wire bodies read through the dialect readers:
 * conversation.json (issue 4: a turn forwarded 1 of 3, a dropped system note, dropped redacted
 * thinking or a Responses reasoning item, a developer message, a Gemini thought signature on a
 * call), rules.json (issue 20: one case per verdict rule, with its clean counterpart) and
 * readers.json (docs/lens.md "Reading by meaning": one case per reader and judge rule).
 */
interface Case {
  /** The rule of docs/lens.md the case stands for (rules.json). */
  rule?: string;
  client: string;
  forwarded: [Dialect, string];
  field: string;
  expect: string;
  cause?: string;
}

const DIR = join(import.meta.dirname, "fixtures", "verdict-cases");
/** Every case file: conversation.json (issue 4), rules.json (issue 20's verdict rules). */
const FILES = readdirSync(DIR)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => {
    const file = join(DIR, name);
    const { bodies, cases } = JSON.parse(readFileSync(file, "utf8")) as {
      bodies: Record<string, Record<string, unknown>>;
      cases: Case[];
    };
    return { file, name, bodies, cases };
  });

const PATHS: Record<Dialect, string> = {
  "anthropic-messages": "/v1/messages",
  "openai-chat": "/v1/chat/completions",
  "openai-responses": "/v1/responses",
  gemini: "/v1beta/models/m:generateContent",
  ollama: "/api/chat",
};

/** The client dialect a body name says (am-, oc-, or-). */
function clientOf(name: string): ClientDialect {
  if (name.startsWith("am-")) return "anthropic-messages";
  if (name.startsWith("oc-")) return "openai-chat";
  return "openai-responses";
}

function body(bodies: Record<string, Record<string, unknown>>, file: string, name: string) {
  const b = bodies[name];
  if (!b) throw new Error(`${file}: no body named ${name}`);
  return b;
}

for (const { file, name, bodies, cases } of FILES) {
  describe(`verdict cases in ${name}`, () => {
    for (const c of cases) {
      const [backend, forwarded] = c.forwarded;
      const title = `${c.rule ? `${c.rule}: ` : ""}${c.client} → ${backend} ${forwarded}`;
      it(`${title}: ${c.field} is ${c.expect}`, () => {
        const client = clientOf(c.client);
        const exchange = parseExchange({
          route: { client, backend },
          mode: "non-stream",
          clientRequest: { path: PATHS[client], headers: {}, body: body(bodies, file, c.client) },
          forwarded: [
            {
              method: "POST",
              path: PATHS[backend],
              headers: {},
              body: JSON.stringify(body(bodies, file, forwarded)),
            },
          ],
        });
        const v = judgeField(exchange, c.field);
        expect(v.field).toBe(c.field);
        expect(v.verdict, v.reason).toBe(c.expect);
        if (c.cause !== undefined) expect(v.cause, v.reason).toBe(c.cause);
        expect(v.reason.startsWith(`${c.field}: `)).toBe(true);
      });
    }
  });
}
