import { describe, expect, it } from "vitest";
import { decodedText, escapedView, replaceInView } from "./escaped-view.ts";

describe("escapedView", () => {
  it("decodes JSON escapes and maps each character to where its spelling starts", () => {
    const text = "a\\u0062\\n\\\\c";
    const { view, starts } = escapedView(text);
    expect(view).toBe("ab\n\\c");
    expect(starts).toEqual([0, 1, 7, 9, 11, 12]);
  });

  it("reads the same as JSON.parse inside a string", () => {
    const body = '"x\\"y\\/z\\t\\u00e9\\ud83d\\ude00 \\\\u0041"';
    expect(escapedView(body.slice(1, -1)).view).toBe(JSON.parse(body));
  });

  it("decodedText reads the same as the view, without the offsets", () => {
    for (const text of ["a\\u0062\\n\\\\c", "plain", "end\\", 'x\\"y\\u12', ""]) {
      expect(decodedText(text)).toBe(escapedView(text).view);
    }
  });

  it("keeps a backslash that starts no escape, and a short \\u, as written", () => {
    expect(escapedView("a\\qb\\u12").view).toBe("a\\qb\\u12");
    expect(escapedView("end\\").view).toBe("end\\");
  });
});

describe("replaceInView", () => {
  it("replaces a span where it is spelled, escapes and all, and nothing else", () => {
    const text = '{"k":"s\\u006b-1","n":"\\n"}';
    const out = replaceInView(text, (view) => {
      const start = view.indexOf("sk-1");
      return [{ start, end: start + 4, replacement: "[X]" }];
    });
    expect(out).toBe('{"k":"[X]","n":"\\n"}');
  });

  it("returns the text itself when nothing is found", () => {
    const text = "a\\u0062c";
    expect(replaceInView(text, () => [])).toBe(text);
  });
});
