/**
 * The fast path of a traffic record's line (traffic-line-bytes.ts) against the plain way
 * (`renderTrafficLine`, encoded as UTF-8): the same bytes for every kind of body, and the
 * escaper against `JSON.stringify` byte by byte.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LineSlab, SLAB_BYTES } from "./line-slab.ts";
import { lineJson } from "./record-line.ts";
import { trafficInput } from "./test-helpers.ts";
import { jsonStringInto, jsonStringLength, writeTrafficLine } from "./traffic-line-bytes.ts";
import {
  renderTrafficLine,
  type TrafficLine,
  type TrafficRecordInput,
  trafficLine,
} from "./traffic-record.ts";

const HEADERS: [string, string][] = [
  ["Host", "127.0.0.1:9"],
  ["Authorization", "Bearer sk-proj-abcdefghijklmnop1234"],
  ["X-Note", "caf\u00e9"],
];

function lineOf(body: string | Buffer, reply: Buffer, edit?: (i: TrafficRecordInput) => void) {
  const input = trafficInput(body, reply, "/v1/chat/completions", HEADERS);
  edit?.(input);
  return trafficLine(input);
}

/** The line's bytes as the fast path wrote them, joined. */
function fastBytes(line: TrafficLine, slab = new LineSlab()): Buffer {
  const at = writeTrafficLine(line, slab);
  const parts = [at.slab.subarray(at.start, at.bodyAt)];
  if (at.body) parts.push(at.body);
  parts.push(at.slab.subarray(at.bodyAt, at.end));
  expect(at.size).toBe(at.end - at.start + (at.body?.length ?? 0));
  return Buffer.concat(parts);
}

const plainBytes = (line: TrafficLine) => Buffer.from(`${lineJson(renderTrafficLine(line))}\n`);

const REPLY = Buffer.from('{"id":"x","choices":[{"message":{"content":"\\"hi\\" \u00fc"}}]}');
const BODIES: (string | Buffer)[] = [
  JSON.stringify({
    model: "m",
    messages: [{ role: "user", content: 'say "hi" \\ gc-0123456789abcdef' }],
  }),
  '{"s":"tab\there\\nnewline\r\n\u0001\u001f\u0008\u000c\u007f"}',
  '{"s":"caf\u00e9 \u2028 \u2029 \ud83d\ude00 \u4e2d"}',
  '\ufeff{"bom":true}',
  '{"api_key":"hunter2-secret","t":"sk-ant-abcdefghijklmnopqrstu"}',
  "not json at all \u0000",
  "",
  Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0xed, 0xa0, 0x80]),
];

describe("traffic line written as bytes", () => {
  it("is byte for byte the plain line, for every kind of request body", () => {
    for (const body of BODIES) {
      const line = lineOf(body, REPLY);
      expect(fastBytes(line).toString("latin1"), String(body)).toBe(
        plainBytes(line).toString("latin1"),
      );
    }
  });

  it("escapes from the bytes only when redaction left the body as it came", () => {
    expect(lineOf(BODIES[0] as string, REPLY).rawBodyBytes).toBeDefined();
    // A credential was replaced, a non-UTF-8 body is base64: the text is written instead.
    expect(lineOf(BODIES[4] as string, REPLY).rawBodyBytes).toBeUndefined();
    expect(lineOf(BODIES[7] as Buffer, REPLY).rawBodyBytes).toBeUndefined();
  });

  it("writes a compressed, a truncated and a non-generate request as the plain way", () => {
    const gz = lineOf(gzipSync('{"m":"x","k":"sk-proj-abcdefghijklmnop1234"}'), REPLY, (i) => {
      i.raw.headers = [...HEADERS, ["content-encoding", "gzip"]];
    });
    const cut = lineOf("", REPLY, (i) => {
      i.raw.bodyTruncated = true;
      i.raw.bodyBytes = 99_999_999;
      i.facts = undefined;
    });
    const list = lineOf("", REPLY, (i) => {
      i.route = { ...i.route, kind: "models" };
      i.reply = { status: 405, staged: false, reason: "method-not-allowed" };
    });
    for (const line of [gz, cut, list]) {
      expect(fastBytes(line).equals(plainBytes(line))).toBe(true);
    }
  });

  it("splices a large reply body as the plain way does, shared, not copied", () => {
    const sse = Buffer.from(
      Array.from({ length: 200 }, (_, n) => `data: {"t":"tok${n} \u00fc\\n"}\n\n`).join(""),
    );
    const line = lineOf(BODIES[0] as string, sse);
    const at = writeTrafficLine(line, new LineSlab());
    expect(at.body).toBe(line.replyBytes.bodyJson);
    expect(fastBytes(line).equals(plainBytes(line))).toBe(true);
  });

  it("starts a new slab when the line does not fit, and gives a large line its own", () => {
    const slab = new LineSlab();
    const line = lineOf(BODIES[2] as string, REPLY);
    const first = writeTrafficLine(line, slab);
    // Fill the slab but for a few bytes: the next line goes to a fresh one, whole.
    slab.advance(first.slab.length - 10);
    const next = writeTrafficLine(line, slab);
    expect(next.slab === first.slab).toBe(false);
    expect(next.start).toBe(0);
    const big = lineOf(JSON.stringify({ s: `"x" ${"y".repeat(SLAB_BYTES / 4)}` }), REPLY);
    const own = new LineSlab();
    const wrote = fastBytes(big, own);
    expect(wrote.equals(plainBytes(big))).toBe(true);
    expect(own.slab.length).toBe(wrote.length);
  });

  it("escapes every byte as JSON.stringify escapes its character", () => {
    const text = Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c)).join("");
    const samples = [text, "\u00e9\u0800\uffff\ud83d\ude00 x", ""];
    // Random valid text: code points from every UTF-8 length.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 200; n++) {
      let s = "";
      for (let i = next() % 60; i > 0; i--) {
        const pick = next() % 4;
        const cp = [
          next() % 0x80,
          0x80 + (next() % 0x780),
          0xe000 + (next() % 0x1000),
          0x10000 + (next() % 0xfffff),
        ][pick] as number;
        s += String.fromCodePoint(cp);
      }
      samples.push(s);
    }
    for (const s of samples) {
      const bytes = Buffer.from(s);
      const out = Buffer.alloc(jsonStringLength(bytes));
      expect(jsonStringInto(bytes, out, 0)).toBe(out.length);
      expect(out.toString("utf8")).toBe(JSON.stringify(s));
    }
  });
});
