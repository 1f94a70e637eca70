import { describe, expect, it } from "vitest";
import { redactBody } from "./body-redaction.ts";
import type { CanonicalReply } from "./canonical.ts";
import { redactionTag } from "./credentials.ts";
import { DIALECTS } from "./dialect.ts";
import { createReplyStreamReader, encodeEvents, writeReplyEvents } from "./reply.ts";
import { streamChannels } from "./split-secrets.ts";
import type { StreamPlan } from "./stream-plan.ts";

const OPENAI = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx";
const PASSWORD = "hunter22";
/** Too short to be searched for as text: found only by its key's name. */
const PIN = "4711";

const reply = (dialect: CanonicalReply["dialect"]): CanonicalReply => ({
  dialect,
  id: "r1",
  model: "m",
  parts: [
    { type: "text", text: `Your key is ${OPENAI}; keep it safe.` },
    {
      type: "tool-call",
      id: "call_1",
      name: "login",
      arguments: JSON.stringify({ user: "ada", password: PASSWORD }),
    },
    { type: "tool-call", id: "call_2", name: "unlock", arguments: JSON.stringify({ pwd: PIN }) },
  ],
  stopReason: "tool_calls",
  usage: { inputTokens: 3, outputTokens: 5 },
  extras: {},
});

/** Every fragment a few characters long, parallel calls round-robin: no line holds a secret whole. */
const PLAN: StreamPlan = { textChunkSize: 5, toolArgumentChunkSize: 4, interleaveToolCalls: true };

/** What a client reading the stream assembles: the text and each call's arguments. */
function assembled(dialect: CanonicalReply["dialect"], wire: string) {
  const reader = createReplyStreamReader(dialect);
  reader.push(wire);
  return reader.end().parts;
}

describe("secrets cut across a stream's events", () => {
  for (const dialect of DIALECTS) {
    it(`are redacted in ${dialect}'s stream, the rest byte for byte`, () => {
      const wire = encodeEvents(dialect, writeReplyEvents(dialect, reply(dialect), PLAN));
      // The plan cut the key in every dialect's text deltas (Responses repeats the whole
      // text and arguments in its `.done` events, which the line-by-line pass covers; Gemini
      // and Ollama send calls whole).
      if (dialect !== "openai-responses") expect(wire).not.toContain(OPENAI);
      const out = redactBody(wire);
      for (const secret of [OPENAI, PASSWORD, PIN]) {
        expect(out).not.toContain(secret);
      }
      const parts = assembled(dialect, out);
      expect(parts[0]).toMatchObject({
        text: `Your key is ${redactionTag(OPENAI)}; keep it safe.`,
      });
      const calls = parts.filter((p) => p.type === "tool-call");
      expect(calls.map((c) => JSON.parse((c as { arguments: string }).arguments))).toEqual([
        { user: "ada", password: redactionTag(PASSWORD) },
        { pwd: redactionTag(PIN) },
      ]);
      // Only the lines holding a part of a secret changed.
      const changed = out.split("\n").filter((line, i) => line !== wire.split("\n")[i]);
      expect(changed.length).toBeGreaterThan(0);
      expect(out.split("\n")).toHaveLength(wire.split("\n").length);
    });
  }

  it("leave a stream without one byte for byte", () => {
    const clean: CanonicalReply = {
      ...reply("openai-chat"),
      parts: [
        { type: "text", text: "Nothing to hide here, task-management is a skill." },
        { type: "tool-call", id: "c", name: "f", arguments: '{"city":"Paris","tokens":3}' },
      ],
    };
    for (const dialect of DIALECTS) {
      const wire = encodeEvents(dialect, writeReplyEvents(dialect, { ...clean, dialect }, PLAN));
      expect(redactBody(wire), dialect).toBe(wire);
    }
  });

  it("find a credential-named key's value that stands whole in the event after its name", () => {
    const event = (args: string) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args } }] } }] })}\n\n`;
    const wire = `${event('{"pass')}${event('word": ')}${event(`"${PASSWORD}"}`)}data: [DONE]\n\n`;
    const out = redactBody(wire);
    expect(out).not.toContain(PASSWORD);
    expect(out).toContain(event('{"pass'));
    expect(out).toContain(event('word": '));
  });

  it("name channels by the stream's own index fields, not by array position", () => {
    const line = (index: number, args: string) => ({
      piece: 0,
      dataAt: 0,
      parsed: {
        choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: args } }] } }],
      },
    });
    const channels = streamChannels([line(0, '{"a"'), line(1, '{"b"'), line(0, ":1}")]);
    const args = [...channels].filter(([name]) => name.endsWith("/arguments"));
    expect(args.map(([name, f]) => [name, f.map((x) => x.value).join("")])).toEqual([
      ["/choices/#index=0/delta/tool_calls/#index=0/function/arguments", '{"a":1}'],
      ["/choices/#index=0/delta/tool_calls/#index=1/function/arguments", '{"b"'],
    ]);
  });

  it("walk a line nested ten thousand levels deep without overflowing the stack", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const line = { piece: 0, dataAt: 0, parsed: deep };
    expect(() => streamChannels([line, line])).not.toThrow();
  });
});
