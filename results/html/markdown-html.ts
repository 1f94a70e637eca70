/**
 * The Markdown report's sections as HTML, so the page and MATRIX.md say the same thing from
 * one renderer (results/markdown-report.ts). markdown-it with raw HTML off: the reasons quote
 * recorded bytes, and a gateway's HTML error page must stay text; its link check refuses
 * `javascript:` and other script addresses. Tables get the page's `md` class.
 */
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
md.renderer.rules.table_open = () => '<table class="md">\n';
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]?.attrSet("rel", "noreferrer");
  return self.renderToken(tokens, idx, options);
};

export function markdownToHtml(lines: readonly string[]): string {
  return md.render(lines.join("\n"));
}
