/**
 * A data value in the Markdown report reads as itself: rendered by a CommonMark renderer that
 * lets raw HTML through (as GitHub renders MATRIX.md, before its sanitizer), it is its own
 * text on one line, no tag, link, emphasis or code span of its making; and a report whose run
 * id, column label and reasons carry newlines, pipes and HTML keeps its heading on one line
 * and every table row's cells.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { afterAll, describe, expect, it } from "vitest";
import { renderMarkdownReport } from "./markdown-report.ts";
import { mdCode, mdLinkTarget, mdText } from "./markdown-text.ts";
import { loadRunView, type RunView } from "./run-view.ts";
import { openStore } from "./store.ts";
import { writeFixtureRun } from "./testing/fixture-run.ts";

const renderer = new MarkdownIt({ html: true, linkify: false });

/** What a reader sees: the rendered HTML's text, entities decoded. */
function seen(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&")
    .trim();
}

const HOSTILE = [
  "run\n<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "a | b | c",
  "**bold** _em_ ~~gone~~ `code` [link](javascript:alert(1)) ![img](x.png)",
  "trailing #",
  "# heading",
  "- a list",
  "12. ordered",
  "> quote",
  "back\\slash \\| \\` \\*",
  "&amp; &#60; &lt;",
  "tab\there, carriage\rreturn, line\u2028separator",
  "<https://example.com>",
];

describe("mdText", () => {
  for (const value of HOSTILE) {
    it(`${JSON.stringify(value)} renders as its own text, in a list and in a table`, () => {
      const text = value.replace(/\s*[\r\n\u2028]+\s*/g, " ").replaceAll("\t", " ");
      const html = renderer.render(`- ${mdText(value)}`);
      expect(html).not.toMatch(/<(script|img|a|em|strong|code|s|del|h\d|blockquote|ol)\b/);
      expect(seen(html)).toBe(text);
      const table = renderer.render(`| x | y |\n|---|---|\n| ${mdText(value)} | end |`);
      expect(table.match(/<td>/g)).toHaveLength(2);
      expect(table).toContain("<td>end</td>");
    });
  }

  it("leaves plain ids and route names as they are", () => {
    for (const plain of ["2026-11-30T02-10-00Z-ab12", "openai-chat->anthropic", "a & b", "x#1"]) {
      expect(mdText(plain)).toBe(plain);
    }
  });
});

describe("mdCode", () => {
  it("holds any run of backticks and a pipe inside one code span", () => {
    for (const value of ["a`b", "``x``", "`lead", "a|b", "x\ny"]) {
      const html = renderer.render(`| ${mdCode(value)} | end |\n|---|---|\n| 1 | 2 |`);
      expect(html.match(/<code>/g)).toHaveLength(1);
      expect(html).toContain("<th>end</th>");
      expect(seen(html.replace(/<\/th>[\s\S]*/, ""))).toBe(value.replace("\n", " "));
    }
  });
});

describe("mdLinkTarget", () => {
  it("keeps a path with spaces and parentheses one link", () => {
    const html = renderer.render(`[bytes](${mdLinkTarget("runs/a b/(x)<y>.json")})`);
    expect(html).toContain('href="runs/a%20b/%28x%29%3Cy%3E.json"');
  });
});

describe("a report whose data carries newlines, pipes and HTML", () => {
  const dir = mkdtempSync(join(tmpdir(), "gatecheck-md-text-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const store = openStore(join(dir, "r.db"));
  writeFixtureRun(store, { runId: "fixture", startedAt: "2026-11-30T02:10:00.000Z" });
  const plain = loadRunView(store);
  store.close();
  const runId = "run\n<script>alert(1)</script>";
  const column = "evil | col\n# <img src=x onerror=alert(1)>";
  // Every column label and reason replaced, wherever the view holds it.
  const swap = (value: unknown, key = ""): unknown => {
    if (value === "portkey@1.15.2+locked") return column;
    if (key === "reason" && typeof value === "string") return "x | y\n<b>z</b>";
    if (value instanceof Map) return new Map([...value].map(([k, v]) => [swap(k), swap(v)]));
    if (Array.isArray(value)) return value.map((v) => swap(v));
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v, k)]));
    }
    return value;
  };
  const view = swap(plain) as RunView;
  view.run.id = runId;
  const md = renderMarkdownReport(view);

  it("keeps the heading on one line, the run id as text", () => {
    const [heading, blank] = md.split("\n");
    expect(heading).toBe("# gatecheck matrix: run run &lt;script>alert(1)&lt;/script>");
    expect(blank).toBe("");
    expect(md).toContain("evil \\| col \\# &lt;img");
  });

  it("writes no tag of the data's making, and every row of a table has its header's cells", () => {
    expect(md).not.toMatch(/<(script|img|b)\b/);
    const html = renderer.render(md);
    expect(html).not.toMatch(/<(script|img|b)\b/);
    const cells = (line: string) => line.trim().replace(/\\\|/g, "").split("|").length;
    let header: number | undefined;
    for (const line of md.split("\n")) {
      if (!line.trim().startsWith("|")) {
        header = undefined;
        continue;
      }
      header ??= cells(line);
      expect(cells(line), line).toBe(header);
    }
  });
});
