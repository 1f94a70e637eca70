import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DIALECTS } from "../../dialects/dialect.ts";
import { getPersona, PERSONA_NAMES, PERSONAS } from "./index.ts";
import type { PersonaRequest } from "./persona.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");

const caseSchema = z.object({
  name: z.string(),
  dialect: z.enum(DIALECTS).default("openai-chat"),
  path: z.string().default("/v1/chat/completions"),
  body: z.unknown(),
});
const fixtureSchema = z.object({
  rule: z.string(),
  pass: z.array(caseSchema).min(1),
  fail: z.array(caseSchema.extend({ status: z.number().int(), message: z.string() })).min(1),
});
type Fixture = z.infer<typeof fixtureSchema>;

function loadFixture(ruleId: string): Fixture {
  const file = join(FIXTURES, `${ruleId}.json`);
  const parsed = fixtureSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  expect(parsed.data.rule).toBe(ruleId);
  return parsed.data;
}

function request(c: z.infer<typeof caseSchema>): PersonaRequest {
  return { dialect: c.dialect, path: c.path, body: c.body, headers: [] };
}

/** The provider message inside each persona's error shape. */
function messageOf(body: unknown): unknown {
  const first = Array.isArray(body) ? body[0] : body;
  return (first as { error?: { message?: unknown } }).error?.message;
}

for (const persona of Object.values(PERSONAS)) {
  describe(`persona ${persona.name}`, () => {
    it("is registered under its own name", () => {
      expect(getPersona(persona.name)).toBe(persona);
    });
    for (const rule of persona.rules) {
      describe(rule.id, () => {
        it("is cited and documented", () => {
          expect(rule.id.startsWith(`${persona.name}/`)).toBe(true);
          expect(rule.description.length).toBeGreaterThan(10);
          expect(rule.citations.length).toBeGreaterThan(0);
          for (const url of rule.citations) expect(url).toMatch(/^https:\/\//);
        });

        const fixture = loadFixture(rule.id);
        for (const c of fixture.pass) {
          it(`passes: ${c.name}`, () => {
            expect(persona.check(request(c))).toBeUndefined();
          });
        }
        for (const c of fixture.fail) {
          it(`rejects: ${c.name}`, () => {
            const rejection = persona.check(request(c));
            expect(rejection?.rule).toBe(rule.id);
            expect(rejection?.status).toBe(c.status);
            expect(messageOf(rejection?.body)).toBe(c.message);
            // The lenient default lets the same request through.
            expect(getPersona("openai")?.check(request(c))).toBeUndefined();
          });
        }
      });
    }
  });
}

describe("fixtures", () => {
  it("name only rules that exist (a renamed rule leaves no orphan fixture)", () => {
    const ruleIds = new Set(Object.values(PERSONAS).flatMap((p) => p.rules.map((r) => r.id)));
    for (const dir of readdirSync(FIXTURES)) {
      for (const file of readdirSync(join(FIXTURES, dir))) {
        expect(ruleIds.has(`${dir}/${file.replace(/\.json$/, "")}`), `${dir}/${file}`).toBe(true);
      }
    }
  });
});

describe("error shapes", () => {
  const chat = (body: unknown): PersonaRequest => ({
    dialect: "openai-chat",
    path: "/v1/chat/completions",
    body,
    headers: [],
  });

  it("deepseek answers OpenAI-shaped with code and param null", () => {
    const body = { model: "deepseek-chat", messages: [{ role: "tool", tool_call_id: "x" }] };
    expect(getPersona("deepseek")?.check(chat(body))?.body).toEqual({
      error: {
        message:
          "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
        type: "invalid_request_error",
        param: null,
        code: "invalid_request_error",
      },
    });
  });

  it("deepseek answers on its Anthropic API with message and type only (sdcb/chats#136)", () => {
    const body = {
      model: "deepseek-v4-pro",
      thinking: { type: "enabled" },
      messages: [
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: {} }] },
      ],
    };
    const req: PersonaRequest = {
      dialect: "anthropic-messages",
      path: "/anthropic/v1/messages",
      body,
      headers: [],
    };
    expect(getPersona("deepseek")?.check(req)?.body).toEqual({
      error: {
        message: "The `content[].thinking` in the thinking mode must be passed back to the API.",
        type: "invalid_request_error",
      },
    });
  });

  it("moonshot answers with message and type only", () => {
    const body = { model: "kimi-k2-thinking", temperature: 0.3, messages: [] };
    expect(getPersona("moonshot")?.check(chat(body))?.body).toEqual({
      error: {
        message: "invalid temperature: only 1 is allowed for this model",
        type: "invalid_request_error",
      },
    });
  });

  it("google answers with a JSON array holding one RPC error, one violation per key", () => {
    const body = { model: "gemini-2.5-flash", messages: [], store: false, top_k: 3 };
    const rejection = getPersona("google")?.check(chat(body));
    expect(rejection?.body).toEqual([
      {
        error: {
          code: 400,
          message:
            'Invalid JSON payload received. Unknown name "store": Cannot find field.\nInvalid JSON payload received. Unknown name "top_k": Cannot find field.',
          status: "INVALID_ARGUMENT",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.BadRequest",
              fieldViolations: [
                {
                  description:
                    'Invalid JSON payload received. Unknown name "store": Cannot find field.',
                },
                {
                  description:
                    'Invalid JSON payload received. Unknown name "top_k": Cannot find field.',
                },
              ],
            },
          ],
        },
      },
    ]);
  });

  it("anthropic answers {type: error, error, request_id}", () => {
    const rejection = getPersona("anthropic")?.check({
      dialect: "anthropic-messages",
      path: "/v1/messages",
      body: { model: "claude-sonnet-4-5", messages: [] },
      headers: [],
    });
    expect(rejection?.body).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: "max_tokens: Field required" },
    });
    expect((rejection?.body as { request_id?: string } | undefined)?.request_id).toMatch(
      /^req_[0-9a-f]{24}$/,
    );
  });
});

describe("scope", () => {
  it("a rule applies only to its dialects: anthropic's max_tokens rule ignores a Chat request", () => {
    const persona = getPersona("anthropic");
    const body = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] };
    expect(
      persona?.check({ dialect: "openai-chat", path: "/v1/chat/completions", body, headers: [] }),
    ).toBeUndefined();
    expect(
      persona?.check({ dialect: "anthropic-messages", path: "/v1/messages", body, headers: [] })
        ?.rule,
    ).toBe("anthropic/max-tokens-required");
  });

  it("non-object bodies are left to the mock's malformed-input handling", () => {
    for (const persona of Object.values(PERSONAS)) {
      for (const body of [undefined, null, "text", [1, 2], 3]) {
        expect(
          persona.check({ dialect: "openai-chat", path: "/", body, headers: [] }),
        ).toBeUndefined();
      }
    }
  });

  it("getPersona knows the five names and nothing inherited", () => {
    expect(PERSONA_NAMES).toEqual(["openai", "deepseek", "moonshot", "google", "anthropic"]);
    expect(getPersona("deepseek")?.name).toBe("deepseek");
    expect(getPersona("constructor")).toBeUndefined();
    expect(getPersona("nope")).toBeUndefined();
  });
});
