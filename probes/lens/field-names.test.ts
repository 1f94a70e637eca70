import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_DIALECTS } from "../../dialects/dialect.ts";
import { readRequest } from "../../dialects/request.ts";
import {
  attributeOf,
  credentialField,
  fieldName,
  headerField,
  REPLY_FEATURES,
  REQUEST_ATTRIBUTES,
  REQUEST_FIELD_NAMES,
  type RequestAttribute,
} from "./field-names.ts";
import { carries } from "./judge-request.ts";

const SPELLINGS = join(import.meta.dirname, "fixtures", "spellings");

describe("the spelling table", () => {
  for (const dialect of CLIENT_DIALECTS) {
    // A body that uses every spelling in the table: each row must name something the reader
    // actually finds there, or the lens would judge a field under the wrong name.
    it(`${dialect}: every row names an attribute the reader finds in a body that uses it`, () => {
      const body = JSON.parse(readFileSync(join(SPELLINGS, `${dialect}.json`), "utf8"));
      const request = readRequest(dialect, body);
      const rows = Object.keys(REQUEST_FIELD_NAMES[dialect]) as RequestAttribute[];
      const missing = rows.filter((attribute) => !carries(attribute, request));
      expect(missing).toEqual([]);
    });

    it(`${dialect}: every field and alias maps back to its attribute`, () => {
      for (const [attribute, row] of Object.entries(REQUEST_FIELD_NAMES[dialect])) {
        expect(attributeOf(dialect, row.field)).toBe(attribute);
        for (const alias of row.aliases ?? []) expect(attributeOf(dialect, alias)).toBe(attribute);
        expect(row.see).toMatch(/^https:\/\//);
      }
    });
  }

  it("names the documented spellings", () => {
    expect(fieldName("anthropic-messages", "sampling.stop")).toBe("stop_sequences");
    expect(fieldName("openai-chat", "sampling.stop")).toBe("stop");
    expect(fieldName("openai-responses", "sampling.stop")).toBeUndefined();
    expect(fieldName("anthropic-messages", "parallel-tool-calls")).toBe(
      "tool_choice.disable_parallel_tool_use",
    );
    expect(fieldName("openai-chat", "tools.strict")).toBe("tools[].function.strict");
    expect(fieldName("openai-responses", "sampling.max-tokens")).toBe("max_output_tokens");
    expect(fieldName("openai-responses", "response-format")).toBe("text.format");
    expect(attributeOf("openai-chat", "max_completion_tokens")).toBe("sampling.max-tokens");
    expect(headerField("Anthropic-Beta")).toBe("headers.anthropic-beta");
    expect(credentialField("header", "X-Api-Key")).toBe("credentials.header.x-api-key");
    expect(credentialField("query", "key")).toBe("credentials.query.key");
  });

  it("spells every attribute somewhere and keeps spellings unique within a dialect", () => {
    for (const attribute of REQUEST_ATTRIBUTES) {
      const spelled = CLIENT_DIALECTS.some((d) => REQUEST_FIELD_NAMES[d][attribute] !== undefined);
      expect(spelled, attribute).toBe(true);
    }
    for (const dialect of CLIENT_DIALECTS) {
      const names = Object.values(REQUEST_FIELD_NAMES[dialect]).flatMap((r) => [
        r.field,
        ...(r.aliases ?? []),
      ]);
      expect(new Set(names).size).toBe(names.length);
    }
    expect(new Set(REPLY_FEATURES).size).toBe(REPLY_FEATURES.length);
  });
});
