/**
 * Every catalogued key shape (dialects/key-shapes.ts) redacted wherever a gateway may put it:
 * one sample of each shape planted in free text, in a plain-named field, in a URL's userinfo,
 * in a header, in a query and in an absolute-form request line, sent to a mock over HTTP;
 * none of them is left in the records in memory or in the record file.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { plantedExample } from "../dialects/key-shapes.ts";
import {
  freeText,
  headerSafe,
  inUserinfo,
  PLANTED_ROWS,
  shapesFoundIn,
} from "../dialects/planted-key-shapes.ts";
import { startMock } from "./index.ts";
import { rawRequest } from "./test-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-key-shapes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHAT = "/v1/chat/completions";
const PLACES = ["free-text", "plain-field", "header", "query", "absolute-form"] as const;
type Place = (typeof PLACES)[number];

/** One request with the row's sample in one place (the others hold none). */
function planted(row: (typeof PLANTED_ROWS)[number], place: Place, authority: string) {
  const sample = plantedExample(row);
  const body = (extra: object) =>
    JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], ...extra });
  const headers = { "x-place": `${row.name} ${place}` };
  switch (place) {
    case "free-text":
      return {
        path: CHAT,
        headers,
        body: body({ messages: [{ role: "user", content: freeText(row) }] }),
      };
    case "plain-field":
      return {
        path: CHAT,
        headers,
        body: body({ metadata: { note: sample, link: inUserinfo(row) } }),
      };
    case "header":
      return {
        path: CHAT,
        headers: { ...headers, "x-note": headerSafe(sample), "x-link": inUserinfo(row) },
        body: body({}),
      };
    case "query": {
      const encoded = (text: string) => encodeURIComponent(text);
      const query = `note=${encoded(sample)}&link=${encoded(inUserinfo(row))}&raw=${inUserinfo(row)}`;
      return { path: `${CHAT}?${query}`, headers, body: body({}) };
    }
    case "absolute-form": {
      const password = encodeURIComponent(row.example);
      return {
        path: `http://bob:${password}@${authority}${CHAT}?note=${encodeURIComponent(sample)}`,
        headers,
        body: body({}),
      };
    }
  }
}

describe("every catalogued key shape, planted where a gateway may put it", () => {
  it("is in no record, in memory or in the record file", async () => {
    const file = join(dir, "records.jsonl");
    const mock = await startMock({ recordFile: file });
    const authority = new URL(mock.url).host;
    const sent: string[] = [];
    for (const row of PLANTED_ROWS) {
      for (const place of PLACES) {
        await rawRequest(mock.url, planted(row, place, authority));
        sent.push(`${row.name} ${place}`);
      }
    }
    const records = mock.records();
    await mock.close();
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const placeOf = (record: { request: { headers: [string, string][] } }) =>
      record.request.headers.find(([name]) => name === "x-place")?.[1];
    // Every request was recorded, and each record's place is known by its header.
    expect(lines.map((line) => placeOf(JSON.parse(line)))).toEqual(sent);
    expect(records.map((record) => placeOf(record as never))).toEqual(sent);
    const leaks: string[] = [];
    const untagged: string[] = [];
    lines.forEach((line, i) => {
      const record = JSON.parse(line);
      const place = placeOf(record);
      // The line as written, and the body and path as a reader of the record decodes them.
      const decoded = `${line}\n${record.request.path}\n${record.request.body.data}`;
      leaks.push(...shapesFoundIn(decoded, `${place ?? i} (record file)`));
      if (!line.includes("[REDACTED:")) untagged.push(place ?? String(i));
    });
    records.forEach((record, i) => {
      leaks.push(...shapesFoundIn(JSON.stringify(record), `record ${i} (memory)`));
    });
    expect(leaks).toEqual([]);
    // Each record redacted something: its planted sample.
    expect(untagged).toEqual([]);
  });
});
