/**
 * Every request the mock receives leaves a record, those Node's HTTP parser refuses too:
 * each raw case is sent over a socket and must come back answered with a body, as Node's
 * status, and be recorded, redacted, with the parser's reason.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockHandle, startMock } from "./index.ts";
import { packetRequest } from "./parser-refusal.ts";
import { parseRecordLines } from "./record-schema.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-refused-"));
const file = join(dir, "records.jsonl");
let m: MockHandle;
beforeAll(async () => {
  m = await startMock({ recordFile: file });
});
afterAll(async () => {
  await m.close();
  rmSync(dir, { recursive: true, force: true });
});

const KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz012345";
const AUTH = `Authorization: Bearer ${KEY}\r\n`;
const CHAT = "/v1/chat/completions";
const BODY = '{"model":"m","messages":[]}';

/** Write each part (a pause between them, so each is its own read) and read to the close. */
function send(parts: (string | Buffer)[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(m.port, "127.0.0.1");
    let got = "";
    socket.on("data", (d: Buffer) => {
      got += d.toString("latin1");
    });
    socket.on("close", () => resolve(got));
    socket.on("error", () => resolve(got));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close; got ${JSON.stringify(got)}`));
    }, 3000);
    socket.on("close", () => clearTimeout(timer));
    socket.on("connect", async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 30));
        socket.write(part);
      }
    });
  });
}

const HEAD_CASES: [string, string, number, RegExp][] = [
  [
    "headers over 16 KB",
    `POST ${CHAT} HTTP/1.1\r\nHost: x\r\n${AUTH}X-Big: ${"a".repeat(17_000)}\r\n\r\n`,
    431,
    /HPE_HEADER_OVERFLOW/,
  ],
  [
    "a NUL in a header",
    `POST ${CHAT} HTTP/1.1\r\nHost: x\r\n${AUTH}X-A: a\0b\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`,
    400,
    /Invalid header value char \(HPE_INVALID_HEADER_TOKEN\)/,
  ],
  [
    "an obs-fold",
    `POST ${CHAT} HTTP/1.1\r\nHost: x\r\n${AUTH}X-A: a\r\n  folded\r\n\r\n`,
    400,
    /whitespace after header value/,
  ],
  [
    "Content-Length with Transfer-Encoding",
    `POST ${CHAT} HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    400,
    /HPE_INVALID_TRANSFER_ENCODING/,
  ],
  [
    "two Content-Lengths",
    `POST ${CHAT} HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: 27\r\nContent-Length: 26\r\n\r\n${BODY}`,
    400,
    /Duplicate Content-Length \(HPE_UNEXPECTED_CONTENT_LENGTH\)/,
  ],
  [
    "an unknown method",
    `FOO ${CHAT} HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`,
    400,
    /HPE_INVALID_METHOD/,
  ],
  [
    "garbage bytes (a TLS hello)",
    `\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 ${KEY}\r\n\r\n`,
    400,
    /HPE_INVALID_METHOD/,
  ],
];

function lastRecord() {
  const records = m.records();
  return records[records.length - 1];
}

describe("a request the HTTP parser refuses before its head is complete", () => {
  for (const [name, raw, status, reason] of HEAD_CASES) {
    it(`${name}: recorded with the parser's reason and answered ${status} with a body`, async () => {
      const before = m.recorded();
      const answer = await send([Buffer.from(raw, "latin1")]);
      expect(answer).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
      expect(body).toMatch(reason);
      expect(Number(/content-length: (\d+)/i.exec(answer)?.[1])).toBe(Buffer.byteLength(body));
      expect(m.recorded()).toBe(before + 1);
      const record = lastRecord();
      expect(record?.reply).toMatchObject({ status, staged: false, reason: "http-parse-error" });
      expect(record?.reply.body.data).toMatch(reason);
      expect(JSON.stringify(record)).not.toContain(KEY);
    });
  }

  it("records the request line, the headers and the body that arrived", async () => {
    const raw = `POST ${CHAT}?key=${KEY} HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: 27\r\nContent-Length: 26\r\n\r\n${BODY}`;
    await send([raw]);
    const record = lastRecord();
    expect(record?.request.method).toBe("POST");
    expect(record?.request.path).toMatch(/^\/v1\/chat\/completions\?key=\[REDACTED:[0-9a-f]{8}\]$/);
    expect(record?.request.headers).toContainEqual([
      "authorization",
      expect.stringMatching(/^Bearer \[REDACTED:/),
    ]);
    expect(record?.request.body.data).toBe(BODY);
    expect(record).toMatchObject({ dialect: "openai-chat", kind: "generate", model: "m" });
  });
});

describe("a chunked body with an invalid chunk size", () => {
  const head = `POST ${CHAT} HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
  const first = `${BODY.length.toString(16)}\r\n${BODY}\r\n`;
  for (const [name, parts] of [
    ["in one packet", [`${head}${first}zz\r\nnot a chunk\r\n`]],
    ["after a good chunk, in a later packet", [head + first, "zz\r\nnot a chunk\r\n"]],
  ] as const) {
    it(`${name}: recorded as a framing error with the bytes, answered 400 with a body`, async () => {
      const answer = await send([...parts]);
      expect(answer).toMatch(/^HTTP\/1.1 400 /);
      expect(answer).toMatch(/Invalid character in chunk size \(HPE_INVALID_CHUNK_SIZE\)/);
      const record = lastRecord();
      expect(record?.reply).toMatchObject({ status: 400, reason: "body-framing-error" });
      // What was decoded, then what the parser refused.
      expect(record?.request.body.data).toBe(`${BODY}zz\r\nnot a chunk\r\n`);
      expect(record?.bodyBytes).toBe(BODY.length + "zz\r\nnot a chunk\r\n".length);
    });
  }
});

describe("the record file", () => {
  it("holds every refused request as a valid record, redacted", async () => {
    await send([`FOO / HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`]);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(KEY);
    const records = parseRecordLines(text, file);
    expect(records.length).toBe(m.recorded());
    expect(records.every((r) => r.reply.reason !== undefined)).toBe(true);
  });

  it("a plain request on the same mock is still answered as before", async () => {
    const answer = await send([
      `POST ${CHAT} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`,
    ]);
    expect(answer).toMatch(/^HTTP\/1.1 200 /);
    expect(lastRecord()?.reply.reason).toBeUndefined();
  });
});

describe("packetRequest", () => {
  it("reads a packet leniently: folded lines join their header, a line without a colon is a name", () => {
    const raw = packetRequest(
      Buffer.from("GET /p?q=1 HTTP/1.1\r\nA: 1\r\n  two\r\nbare\r\n\r\nrest", "latin1"),
    );
    expect(raw).toMatchObject({
      method: "GET",
      path: "/p",
      query: "q=1",
      headers: [
        ["A", "1 two"],
        ["bare", ""],
      ],
      bodyBytes: 4,
    });
    expect(packetRequest(Buffer.from("\x16\x03 garbage\r\n"))).toMatchObject({
      method: "-",
      path: "/",
      bodyBytes: Buffer.byteLength("\x16\x03 garbage\r\n"),
    });
  });
});
