/**
 * A heavy staged stream is rendered off the request path by the request that takes it
 * (heavy-render.ts): a plain request sent while it is being taken is answered, and
 * recorded, before the heavy reply is; and the heavy way gives the same bytes, on the wire
 * and in the record, as rendering at once, for every dialect, reply form and wire shape.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../dialects/dialect.ts";
import { dialectModule } from "../dialects/registry.ts";
import { isStreamForm } from "../dialects/reply-forms.ts";
import { planHeavyReply } from "./heavy-render.ts";
import { type MockHandle, startMock } from "./index.ts";
import { replyBytes } from "./reply-bytes.ts";
import { planReply, planReplyNow, type ReplyContext } from "./reply-engine.ts";
import { parseStagedReply, type ReplySpec, type StagedReplySpec } from "./staged-reply-spec.ts";
import { rawRequest } from "./test-helpers.ts";
import type { WireReply } from "./wire-plan.ts";

const dir = mkdtempSync(join(tmpdir(), "gc-heavy-take-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function heavySpec(model: string, chars: number): StagedReplySpec {
  const parsed = parseStagedReply({
    match: { model },
    reply: {
      body: {
        canonical: { parts: [{ type: "text", text: "x".repeat(chars) }] },
        stream: true,
        plan: { textChunkSize: 1 },
      },
    },
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.specs[0] as StagedReplySpec;
}

describe("taking a heavy staged stream", () => {
  let m: MockHandle | undefined;
  afterAll(() => m?.close());

  it("answers a plain request sent meanwhile before the heavy reply", async () => {
    const recordFile = join(dir, "order.jsonl");
    m = await startMock({ recordFile });
    // Staged in process: its render check runs at once and finds it heavy.
    m.stage(heavySpec("heavy", 20_000));
    const heavy = rawRequest(
      m.url,
      { path: "/v1/chat/completions", body: '{"model":"heavy","messages":[],"stream":true}' },
      120_000,
    );
    // Wait until the heavy request has taken its spec: from then on it is being answered.
    for (;;) {
      const health = await rawRequest(
        m.url,
        { method: "GET", path: "/__gatecheck/health" },
        120_000,
      );
      if ((JSON.parse(health.body.toString()) as { staged: number }).staged === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const plain = await rawRequest(
      m.url,
      { path: "/v1/chat/completions", body: '{"model":"plain","messages":[]}' },
      120_000,
    );
    const heavyReply = await heavy;
    expect([plain.status, heavyReply.status]).toEqual([200, 200]);
    expect(heavyReply.chunks.length).toBeGreaterThan(20_000);
    await m.close();
    m = undefined;
    // The file holds records in the order they were made, and a reply goes out only after
    // its record: the plain request's record first means it was answered first.
    const models = readFileSync(recordFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { model?: string }).model);
    expect(models).toEqual(["plain", "heavy"]);
  }, 240_000);
});

/** Every request variant a dialect answers (its reply-form rows), as a reply context. */
function contexts(): { name: string; ctx: ReplyContext }[] {
  const out: { name: string; ctx: ReplyContext }[] = [];
  for (const dialect of DIALECTS) {
    for (const row of dialectModule(dialect).replyForms) {
      const stream = isStreamForm(row.form);
      const usage = row.usage;
      out.push({
        name: `${dialect} ${row.variant}`,
        ctx: {
          dialect,
          stream,
          form: row.form,
          usage,
          errorInArray: row.errorBody?.form === "array",
          requestHeaders: [["accept-encoding", "gzip"]],
          defaultReply: {
            model: "m",
            stream,
            form: row.form,
            ...(usage === undefined ? {} : { usage }),
          },
        },
      });
    }
  }
  return out;
}

/** Reply shapes around one canonical body: its stream choice, faults and wire plans. */
const REPLIES: Record<string, unknown> = {
  "as asked": {},
  "forced stream": { stream: true },
  "forced json": { stream: false },
  "error after": { plan: { textChunkSize: 3, errorAfter: { afterEvents: 500, message: "x" } } },
};
const WIRES: Record<string, unknown> = {
  plain: {},
  "reset fault": { fault: "reset" },
  "html-502 fault": { fault: "html-502" },
  gzip: { wire: { gzip: "if-accepted" } },
  "keep-alive and every 100 bytes": {
    wire: { keepAlive: { every: 7 }, chunks: { every: 100 } },
  },
};

function spec(reply: unknown, wire: unknown): ReplySpec {
  const { stream, plan } = reply as { stream?: boolean; plan?: unknown };
  const parsed = parseStagedReply({
    reply: {
      body: {
        // A key shape in the text: the record's bytes are redacted the same both ways.
        canonical: {
          parts: [{ type: "text", text: `sk-proj-${"a".repeat(40)} ${"héllo ".repeat(300)}` }],
        },
        plan: plan ?? { textChunkSize: 1 },
        ...(stream === undefined ? {} : { stream }),
      },
      ...(wire as object),
    },
  });
  const staged = parsed.ok ? parsed.specs[0]?.reply : undefined;
  if (!staged) throw new Error(parsed.ok ? "no reply" : parsed.error);
  return staged;
}

function bytesOf(wire: WireReply) {
  const redacted = replyBytes(wire.frames, {
    contentEncoding: wire.headers.find(([k]) => k === "content-encoding")?.[1],
  });
  return {
    status: wire.status,
    headers: wire.headers,
    frames: wire.frames.map((f) => [f.bytes.toString("base64"), f.delayMs, f.raw ?? false]),
    rest: [wire.ending, wire.transfer, wire.before, wire.declaredLength, wire.headersDelayMs],
    record: [redacted.body, redacted.bodyEncoding, redacted.bodyJsonText],
  };
}

describe("a heavy reply's bytes", () => {
  it("equal rendering it at once, for every dialect, reply form and wire shape", async () => {
    let compared = 0;
    let rendered = 0;
    for (const { name, ctx } of contexts()) {
      for (const [replyName, reply] of Object.entries(REPLIES)) {
        for (const [wireName, wire] of Object.entries(WIRES)) {
          const label = `${name}, ${replyName}, ${wireName}`;
          // Two parses of the same spec: each is rendered afresh, never from the other's cache.
          // Gzip is the one asynchronous step: rendered at once, then compressed.
          const atOnce =
            planReplyNow(spec(reply, wire), ctx) ?? (await planReply(spec(reply, wire), ctx));
          const heavy = await planHeavyReply(spec(reply, wire), ctx);
          const expected = bytesOf(atOnce);
          expect(bytesOf(heavy), label).toEqual(expected);
          compared += 1;
          // The canonical body was rendered (its 1.8 KB of text, not a default reply or a page).
          if (String(expected.record[0]).length > 1500) rendered += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(rendered).toBeGreaterThan(compared / 2);
  }, 120_000);
});
