/**
 * The README's and docs/report-html.md's pictures of the HTML report, from a report file of
 * a current run: `npx tsx scripts/docs-screenshots.ts report.html docs/img`. Debian's
 * Chromium (/usr/bin/chromium) through playwright-core, as the browser test drives it.
 * Writes report-headline.png (the page's top: scope and headline), report.png (the
 * Anthropic Messages clients' request axis) and report-detail.png (a dropped cell's
 * drill-down: the reason, the export command and the four panes).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const [html, outDir] = process.argv.slice(2);
if (!html || !outDir || !existsSync(html)) {
  console.error(
    "usage: npx tsx scripts/docs-screenshots.ts REPORT.html OUT-DIR (write the report with `npx gatecheck report --html REPORT.html`)",
  );
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  process.exit(2);
}

const browser = await chromium.launch({ executablePath: CHROMIUM });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(pathToFileURL(resolve(html)).href);
  await page.screenshot({ path: join(outDir, "report-headline.png") });

  await page.selectOption("#f-client", "anthropic-messages");
  await page.selectOption("#f-axis", "request");
  await page.evaluate(
    "window.scrollTo(0, document.getElementById('filters').getBoundingClientRect().top + window.scrollY)",
  );
  await page.screenshot({ path: join(outDir, "report.png") });

  await page
    .locator('table[data-client="anthropic-messages"] .chip[data-verdict="dropped"]:visible')
    .first()
    .click();
  await page.locator("#export-command").waitFor();
  await page.screenshot({ path: join(outDir, "report-detail.png") });
} finally {
  await browser.close();
}
