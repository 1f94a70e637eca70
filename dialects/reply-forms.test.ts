/**
 * The reply-form tables: every module has one, read in order, ending in a row that answers
 * anything; every row cites the provider; and the traits other rooms read (`streamsByDefault`,
 * `streamUsage`) say what the table says. The mock's answer per row is tested over HTTP in
 * mock-upstream/reply-forms.test.ts.
 */
import { describe, expect, it } from "vitest";
import { DIALECTS } from "./dialect.ts";
import { DIALECT_MODULES } from "./registry.ts";
import { isStreamForm, type ReplyFormRow, replyFormRow, rowMatches } from "./reply-forms.ts";
import { requestStreams } from "./routes.ts";

const unconditional = (row: ReplyFormRow) =>
  row.method === undefined && row.query === undefined && row.body === undefined;

describe.each(DIALECTS)("%s's reply-form table", (dialect) => {
  const module = DIALECT_MODULES[dialect];
  const rows = module.replyForms;

  it("ends with the one row that answers anything, and names each variant once", () => {
    expect(rows.filter(unconditional)).toEqual([rows[rows.length - 1]]);
    expect(new Set(rows.map((r) => r.variant)).size).toBe(rows.length);
  });

  it("cites the provider's reference on every row", () => {
    for (const row of rows) {
      expect(row.see, row.variant).toMatch(/^https:\/\/\S+$/);
      if (row.errorBody) expect(row.errorBody.see, row.variant).toMatch(/^https:\/\/\S+$/);
    }
  });

  it("writes only its own framings: the dialect's stream framing, JSON, or Gemini's array", () => {
    for (const row of rows) {
      if (row.form === "json" || row.form === "json-array") continue;
      expect(row.form, row.variant).toBe(module.routes.framing);
    }
  });

  it("agrees with streamsByDefault: a request that says nothing of streaming", () => {
    const method = module.routes.match(module.routes.generate("m"))?.stream;
    const streams = requestStreams(
      { dialect, kind: "generate", ...(method === undefined ? {} : { stream: method }) },
      {},
    );
    expect(streams).toBe(module.traits.streamsByDefault || method === true);
  });

  it("agrees with streamUsage: a stream omits usage only where the dialect reports it when asked", () => {
    const omits = rows.some((r) => isStreamForm(r.form) && r.usage === "omitted");
    expect(omits).toBe(module.traits.streamUsage === "when-asked");
    for (const row of rows) {
      if (isStreamForm(row.form)) expect(row.usage, row.variant).toBeDefined();
      else expect(row.usage, row.variant).toBeUndefined();
    }
  });
});

describe("matching", () => {
  const rows = DIALECT_MODULES.gemini.replyForms;

  it("reads the query: alt=sse streams SSE, no alt the JSON array", () => {
    expect(replyFormRow(rows, { method: "stream", query: "alt=sse", body: {} }).form).toBe("sse");
    expect(replyFormRow(rows, { method: "stream", query: "", body: {} }).form).toBe("json-array");
    expect(replyFormRow(rows, { method: "stream", query: "key=k&alt=json", body: {} }).form).toBe(
      "json-array",
    );
    expect(replyFormRow(rows, { method: "generate", query: "alt=sse", body: {} }).form).toBe(
      "json",
    );
  });

  it("reads a body value by its dotted path; null means not given", () => {
    const row: ReplyFormRow = {
      variant: "x",
      body: { stream: true, "stream_options.include_usage": null },
      form: "sse",
      see: "https://example.com",
    };
    expect(rowMatches(row, { query: "", body: { stream: true } })).toBe(true);
    expect(rowMatches(row, { query: "", body: { stream: true, stream_options: {} } })).toBe(true);
    const asked = { stream: true, stream_options: { include_usage: true } };
    expect(rowMatches(row, { query: "", body: asked })).toBe(false);
    expect(rowMatches(row, { query: "", body: { stream: "true" } })).toBe(false);
  });
});
