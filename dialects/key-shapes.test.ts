import { describe, expect, it } from "vitest";
import { redactionTag, redactText } from "./credentials.ts";
import {
  ANY_KEY_SHAPE,
  KEY_PREFIXES,
  KEY_SHAPE_TABLE,
  KEY_SHAPES,
  plantedExample,
} from "./key-shapes.ts";

describe("the key-shape catalogue", () => {
  it("has a reference, a prefix its example passes, and an example its own shape takes whole", () => {
    for (const row of KEY_SHAPE_TABLE) {
      expect(row.see, row.provider).toMatch(/^https:\/\//);
      const text = plantedExample(row);
      expect(new RegExp(row.prefix).test(text), row.provider).toBe(true);
      expect(
        [...text.matchAll(row.shape)].map((m) => m[0]),
        row.provider,
      ).toEqual([row.example]);
    }
  });

  it("redacts in one pass what the shapes one by one, in table order, redact", () => {
    const text = KEY_SHAPE_TABLE.map((row) => `(${plantedExample(row)})`).join(" and ");
    let oneByOne = text;
    for (const shape of KEY_SHAPES) oneByOne = oneByOne.replace(shape, (m) => redactionTag(m));
    expect(text.replace(ANY_KEY_SHAPE, (m) => redactionTag(m))).toBe(oneByOne);
    expect(oneByOne).not.toContain("EXAMPLE");
  });

  it("takes each vendor's other documented prefixes", () => {
    for (const key of [
      `rk_live_${"R7".repeat(12)}`,
      `sk_test_${"T7".repeat(12)}`,
      `xoxp-1234-5678-${"P".repeat(12)}`,
      `xapp-1-A0123-456-${"a".repeat(16)}`,
      `glrt-${"g".repeat(20)}`,
      `gldt-${"d".repeat(20)}`,
      `lsv2_sk_${"5".repeat(32)}`,
    ]) {
      expect(redactText(`x ${key} y`), key).toBe(`x ${redactionTag(key)} y`);
    }
    expect(redactText("BEARER abcdefghijklmnop0123")).toBe(
      `BEARER ${redactionTag("abcdefghijklmnop0123")}`,
    );
    // A URL's password that a provider's key is: one tag, not a tag inside a tag.
    const key = `sk-proj-${"K".repeat(20)}`;
    expect(redactText(`https://u:${key}@h/`)).toBe(`https://u:${redactionTag(key)}@h/`);
  });

  it("leaves ordinary text alone", () => {
    for (const text of [
      "Bearer tokens are sent in a header",
      "Authorization: Bearer [REDACTED:0123abcd]",
      "mail bob@example.com or see https://example.com/a?b=c@d",
      "https://example.com:443/path@v2 and ssh://git@github.com:org/repo.git",
      "http://localhost:8080/v1/chat/completions",
      "max_tokens and npm_config_cache=/tmp/npm and xoxo-hugs",
      "the sk_live_ prefix, glpat-short, SG.x, eyJ alone, r8_x, pplx-1",
      "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
      `data:image/png;base64,iVBORw0KGgo${"eyJ".padEnd(60, "A")}+/=`,
    ]) {
      expect(redactText(text), text).toBe(text);
    }
  });

  it("reads hostile text in one pass: long runs of spaces, of `eyJ`, of BEGIN lines", () => {
    // Each of these took seconds at 40 KB before its shape was bounded (quadratic).
    for (const text of [
      `sk-x aws_secret_access_key${" ".repeat(200_000)}x Bearer${" ".repeat(200_000)}x`,
      `sk-x ${"eyJ".repeat(70_000)}`,
      `sk-x ${"-----BEGIN PRIVATE KEY-----".repeat(8_000)}`,
    ]) {
      const started = performance.now();
      redactText(text);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });

  it("rules out text with none of the prefixes in one scan", () => {
    expect(KEY_PREFIXES.test('{"model":"m","messages":[{"role":"user","content":"hi"}]}')).toBe(
      false,
    );
  });
});
