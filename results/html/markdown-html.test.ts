import { describe, expect, it } from "vitest";
import { markdownToHtml } from "./markdown-html.ts";

describe("markdownToHtml", () => {
  it("turns the report's headings, tables, lists and inline marks into HTML", () => {
    const html = markdownToHtml([
      "## Headline",
      "",
      "One row per *root cause*.",
      "",
      "- **Measured**: `direct@0`",
      "",
      "| severity | defect |",
      "|---|---|",
      "| high | dropped `tools.strict` [BerriAI/litellm#1](https://github.com/BerriAI/litellm/issues/1) |",
      "| low | a \\| b <https://example.org/x> |",
    ]);
    expect(html).toContain("<h2>Headline</h2>");
    expect(html).toContain("<p>One row per <em>root cause</em>.</p>");
    expect(html).toContain("<li><strong>Measured</strong>: <code>direct@0</code></li>");
    expect(html).toContain('<table class="md">');
    expect(html).toContain("<th>severity</th>");
    expect(html).toContain(
      '<td>dropped <code>tools.strict</code> <a href="https://github.com/BerriAI/litellm/issues/1" rel="noreferrer">BerriAI/litellm#1</a></td>',
    );
    expect(html).toContain(
      '<td>a | b <a href="https://example.org/x" rel="noreferrer">https://example.org/x</a></td>',
    );
  });

  it("never lets recorded bytes in a reason become markup", () => {
    const html = markdownToHtml([
      "| reason |",
      "|---|",
      '| upstream → client 502 "<html><script>alert(1)</script>" [x](javascript:alert(1)) |',
    ]);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<html>");
    expect(html).not.toContain('href="javascript');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
