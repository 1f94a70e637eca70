/**
 * The shortcuts the mock's hot path takes must give exactly what the plain way gives: the
 * nonce index of the stage store against a linear scan, the spliced record line against
 * `JSON.stringify`, the cached reply bytes against joining the frames, the single-parse
 * redaction against `redactBody`.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { redactBody, redactParsedBody } from "../dialects/body-redaction.ts";
import type { MockRecord } from "./record.ts";
import { Recorder, recordLineParts } from "./recorder.ts";
import { replyBytes } from "./reply-bytes.ts";
import { type StageRequest, StageStore } from "./stage-store.ts";
import { StagedReplySpec } from "./staged-reply-spec.ts";

const spec = (s: unknown) => StagedReplySpec.parse(s);
const req = (rawText: string, model?: string): StageRequest => ({
  rawText,
  model,
  path: "/v1/chat/completions",
  prefixless: "/v1/chat/completions",
});

/** The store's rule, written the slow way: highest rank, then staging order. */
function linearPick(specs: StagedReplySpec[], request: StageRequest): number | undefined {
  let best: number | undefined;
  let bestRank = -1;
  specs.forEach((s, i) => {
    const m = s.match;
    if (m.nonce !== undefined && !request.rawText.includes(m.nonce)) return;
    if (m.model !== undefined && m.model !== request.model) return;
    const r = (m.nonce ? 4 : 0) + (m.model ? 2 : 0);
    if (r > bestRank) {
      best = i;
      bestRank = r;
    }
  });
  return best;
}

describe("stage store nonce index", () => {
  it("picks what a linear scan picks, for nonce-shaped, odd and absent nonces", () => {
    const nonce = (i: number) => `gc-${i.toString(16).padStart(16, "0")}`;
    const specs = [
      spec({ times: "always", reply: { status: 500 } }),
      spec({ match: { model: "m" }, times: "always", reply: { status: 501 } }),
      ...Array.from({ length: 300 }, (_, i) =>
        spec({ match: { nonce: nonce(i) }, times: "always", reply: { status: 200 + (i % 50) } }),
      ),
      spec({ match: { nonce: nonce(7), model: "m" }, times: "always", reply: { status: 299 } }),
      spec({ match: { nonce: "probe-7" }, times: "always", reply: { status: 298 } }),
      spec({ match: { nonce: nonce(8) }, times: "always", reply: { status: 297 } }),
    ];
    const store = new StageStore();
    const ids = specs.map((s) => store.add(s));
    const bodies: [string, string | undefined][] = [
      [`{"t":"hi ${nonce(3)}"}`, undefined],
      [`{"t":"${nonce(7)}"}`, "m"],
      [`{"t":"${nonce(7)}"}`, "other"],
      // A longer hex run still contains the nonce: `includes` matches it, and so must the index.
      [`{"t":"${nonce(9)}0ff"}`, undefined],
      [`{"t":"x${nonce(8)}"}`, undefined],
      [`{"t":"probe-7 ${nonce(12)} ${nonce(5)}"}`, undefined],
      [`{"t":"no nonce"}`, "m"],
      [`{"t":"no nonce"}`, undefined],
      [`{"t":"${nonce(299)} ${nonce(1)}"}`, undefined],
    ];
    for (const [rawText, model] of bodies) {
      const expected = linearPick(specs, req(rawText, model));
      const taken = store.take(req(rawText, model));
      expect(taken?.id, rawText).toBe(expected === undefined ? undefined : ids[expected]);
    }
  });

  it("removes a spent nonce spec and keeps the next one staged for the same nonce", () => {
    const store = new StageStore();
    const n = "gc-00000000000000aa";
    store.add(spec({ match: { nonce: n }, reply: { status: 503 } }));
    store.add(spec({ match: { nonce: n }, times: 2, reply: { status: 200 } }));
    const got = Array.from({ length: 4 }, () => store.take(req(`{"t":"${n}"}`))?.reply.status);
    expect(got).toEqual([503, 200, 200, undefined]);
    expect(store.list()).toHaveLength(0);
    store.add(spec({ match: { nonce: n }, times: "always", reply: { status: 201 } }));
    store.clear();
    expect(store.take(req(n))).toBeUndefined();
  });
});

function sampleRecord(body: string, bodyEncoding: "utf8" | "base64" = "utf8"): MockRecord {
  return {
    seq: 3,
    receivedAt: "2026-11-30T03:00:00.000Z",
    listener: "mock",
    request: {
      method: "POST",
      path: "/v1/chat/completions",
      headers: [["content-type", "application/json"]],
      body: { data: '{"q":"\\"quoted\\" ü"}', encoding: "utf8" },
    },
    bodyBytes: 20,
    kind: "generate",
    reply: {
      status: 200,
      staged: true,
      stagedId: "stage-1",
      headers: [["content-type", "text/event-stream"]],
      body: { data: body, encoding: bodyEncoding },
    },
  };
}

describe("record line with a pre-serialized reply body", () => {
  const sse = Array.from({ length: 300 }, (_, i) => `data: {"t":"tok${i} ü\\n"}\n\n`).join("");

  it("joins to exactly JSON.stringify(record)", () => {
    for (const [body, enc] of [
      [sse, "utf8"],
      ["AAEC/w==", "base64"],
    ] as const) {
      const record = sampleRecord(body, enc);
      const parts = recordLineParts(record, Buffer.from(JSON.stringify(body)));
      expect(parts).toBeDefined();
      const line = Buffer.concat((parts ?? []).map((p) => Buffer.from(p))).toString("utf8");
      expect(line).toBe(`${JSON.stringify(record)}\n`);
    }
  });

  it("declines when the reply body is not where the splice expects it", () => {
    const record = sampleRecord(sse);
    const { body, ...rest } = record.reply;
    const reordered = { ...record, reply: { body, ...rest } };
    expect(recordLineParts(reordered, Buffer.from(JSON.stringify(body.data)))).toBeUndefined();
    const swapped = {
      ...record,
      reply: { ...rest, body: { encoding: body.encoding, data: body.data } },
    };
    expect(recordLineParts(swapped, Buffer.from(JSON.stringify(body.data)))).toBeUndefined();
  });

  it("writes the spliced lines whole to the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gatecheck-line-"));
    try {
      const file = join(dir, "r.jsonl");
      const recorder = new Recorder(file);
      const records = Array.from({ length: 50 }, (_, i) => ({ ...sampleRecord(sse), seq: i }));
      const bodyJson = Buffer.from(JSON.stringify(sse));
      for (const [i, r] of records.entries()) recorder.add(r, i % 2 ? bodyJson : undefined);
      await recorder.close();
      const lines = readFileSync(file, "utf8").trimEnd().split("\n");
      expect(lines).toEqual(records.map((r) => JSON.stringify(r)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("cached reply bytes", () => {
  it("equal the joined frames, for the same buffers and for a list sharing the first one", () => {
    const units = [Buffer.from("data: ü\n\n"), Buffer.from("data: [DONE]\n\n")];
    const frames = units.map((bytes) => ({ bytes, delayMs: 0 }));
    const once = replyBytes(frames);
    expect(once.body).toBe("data: ü\n\ndata: [DONE]\n\n");
    expect(replyBytes(frames.map((f) => ({ ...f })))).toBe(once);
    const shorter = replyBytes(frames.slice(0, 1));
    expect(shorter.body).toBe("data: ü\n\n");
    expect(JSON.parse(shorter.bodyJson.toString("utf8"))).toBe(shorter.body);
    const binary = replyBytes([{ bytes: Buffer.from([0xff, 0x00]), delayMs: 0 }]);
    expect(binary).toMatchObject({ body: "/wA=", bodyEncoding: "base64" });
    const withRaw = replyBytes([
      ...frames,
      { bytes: Buffer.from("zz\r\n"), delayMs: 0, raw: true },
    ]);
    expect(withRaw.body).toBe(once.body);
  });
});

describe("single-parse redaction", () => {
  it("gives what redactBody gives", () => {
    const key = "sk-proj-abcdefghijklmnop1234";
    const bodies = [
      '{"model":"m","messages":[{"role":"user","content":"hi"}]}',
      `{"api_key":"${key}","messages":[{"content":"use ${key}"}]}`,
      `{"nested":{"Authorization":"Bearer tok-123456"},"n":1}`,
      '{"token":"short1","bearer":"abcdefgh"}',
    ];
    for (const raw of bodies) expect(redactParsedBody(raw, JSON.parse(raw))).toBe(redactBody(raw));
  });
});
