/**
 * The HTML report in a real browser, from a real small sweep: `direct` (clean) and an
 * in-test lossy gateway (an HTTP proxy in this process that deletes `stop`, `stop_sequences`
 * and `temperature` before forwarding to the mock). Two runs are swept into one database:
 * the first with the proxy carrying everything, the second lossy, so the page has history
 * and a diff with regressions. Headless Debian Chromium via playwright-core; never a
 * downloaded browser.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execaCommand } from "execa";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayAdapter } from "../../gateways/adapter.ts";
import { direct } from "../../gateways/adapters/direct.ts";
import { attachedGateway } from "../../gateways/start.ts";
import { CORPUS } from "../../probes/corpus/index.ts";
import { runSweep } from "../../sweep/run-sweep.ts";
import { writeOutputFile } from "../run-outputs.ts";
import { openStoreReadonly } from "../store.ts";
import { htmlReportOf } from "./build-html-report.ts";
import { VERDICT_STYLE } from "./verdict-palette.ts";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const PROBE_IDS = [
  "oc-stop-string",
  "oc-temperature",
  "am-stop-sequences",
  "am-temperature",
  "or-temperature",
];
const DROPPED_KEYS = ["stop", "stop_sequences", "temperature"];

/** A gateway that forwards to the mock, deleting DROPPED_KEYS from JSON bodies when lossy. */
function proxyGateway(lossy: boolean, servers: Server[]): GatewayAdapter {
  return {
    ...direct,
    name: "lossy",
    description: "in-test proxy that drops stop and temperature",
    launch: async (ctx) => {
      const target = new URL(ctx.mockUrl("openai-chat"));
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          let body = Buffer.concat(chunks);
          if (lossy) {
            try {
              const json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
              for (const key of DROPPED_KEYS) delete json[key];
              body = Buffer.from(JSON.stringify(json));
            } catch {
              // Not JSON: forwarded as it came.
            }
          }
          const headers = {
            ...req.headers,
            host: target.host,
            "content-length": String(body.length),
          };
          const upstream = httpRequest(
            {
              host: target.hostname,
              port: target.port,
              path: req.url,
              method: req.method,
              headers,
            },
            (reply) => {
              res.writeHead(reply.statusCode ?? 502, reply.headers);
              reply.pipe(res);
            },
          );
          upstream.on("error", (e) => res.destroy(e));
          upstream.end(body);
        });
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      const gateway = attachedGateway("lossy@1", `http://127.0.0.1:${port}`);
      return {
        ...gateway,
        attached: false,
        stop: async () => {
          await new Promise<void>((resolve) => server.close(() => resolve()));
          return { gone: true, how: "sigterm" as const };
        },
      };
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), "gatecheck-html-"));
const servers: Server[] = [];
let context: BrowserContext | undefined;
let htmlPath = "";
let runIds: string[] = [];

async function sweep(lossy: boolean): Promise<string> {
  const result = await runSweep({
    columns: [
      { adapter: direct, spec: { name: "direct", version: "0" } },
      { adapter: proxyGateway(lossy, servers), spec: { name: "lossy", version: "1" } },
    ],
    probes: CORPUS.filter((p) => PROBE_IDS.includes(p.id)),
    modes: ["non-stream", "stream"],
    repeats: 2,
    minutes: 2,
    concurrency: 2,
    dbPath: join(dir, "gc.db"),
    outDir: dir,
    attemptTimeoutMs: 10_000,
    args: { test: "html-report" },
  });
  return result.runId;
}

beforeAll(async () => {
  runIds = [await sweep(false), await sweep(true)];
  const store = openStoreReadonly(join(dir, "gc.db"));
  try {
    htmlPath = join(dir, "report.html");
    writeOutputFile(htmlPath, htmlReportOf(store));
  } finally {
    store.close();
  }
  if (existsSync(CHROMIUM)) {
    context = await chromium.launchPersistentContext(join(dir, "chromium-profile"), {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1400, height: 900 },
    });
  }
});

afterAll(async () => {
  await context?.close();
  for (const s of servers) s.closeAllConnections?.();
  rmSync(dir, { recursive: true, force: true });
});

function dbCells(runId: string) {
  const store = openStoreReadonly(join(dir, "gc.db"));
  try {
    return store.cells(runId);
  } finally {
    store.close();
  }
}

/** Computed background of the first element matching a selector (a string, since tsc has no DOM lib). */
async function background(page: Page, selector: string): Promise<unknown> {
  return page.evaluate(
    `getComputedStyle(document.querySelector(${JSON.stringify(selector)})).backgroundColor`,
  );
}

const rgb = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

describe("HTML report in Chromium", () => {
  it("needs Debian chromium at /usr/bin/chromium (apt-get install chromium)", () => {
    expect(existsSync(CHROMIUM)).toBe(true);
  });

  it("draws one chip per cell, coloured by verdict, filters, and shows the forwarded bytes", async () => {
    if (!context) throw new Error(`no browser: ${CHROMIUM} missing`);
    const latest = runIds[1] ?? "";
    const cells = dbCells(latest);
    const dropped = cells.filter((c) => c.verdict === "dropped");
    // The proxy's loss must be in the data, or the page test proves nothing.
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.every((c) => c.column === "lossy@1")).toBe(true);

    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(htmlPath).href);
    expect(await page.locator(".chip[data-cell]").count()).toBe(cells.length);

    const droppedChip = page.locator('.chip[data-verdict="dropped"]').first();
    expect(await background(page, '.chip[data-verdict="dropped"]')).toBe(
      rgb(VERDICT_STYLE.dropped.background),
    );
    expect(await background(page, '.chip[data-verdict="preserved"]')).toBe(
      rgb(VERDICT_STYLE.preserved.background),
    );
    expect(await droppedChip.textContent()).toContain("DROPPED");

    await page.selectOption("#f-verdict", "dropped");
    expect(await page.locator(".chip[data-cell]:visible").count()).toBe(dropped.length);
    expect(await page.locator("#f-count").textContent()).toBe(
      `${dropped.length} of ${cells.length} cells shown`,
    );

    // The dropped stop on the lossy column: the forwarded body carries the nonce but no STOPPROBE.
    await page.selectOption("#f-verdict", "");
    await page.fill("#f-search", "oc-stop-string");
    expect(await page.locator("tr.row:visible").count()).toBe(1);
    const lossyStop = page.locator(
      'tr[data-probe="oc-stop-string"] .chip[data-verdict="dropped"][data-mode="non-stream"]',
    );
    await lossyStop.click();
    mkdirSync("test-output", { recursive: true });
    await page.screenshot({ path: join("test-output", "report-detail.png") });
    const forwarded = (await page.locator("#pane-forwarded pre").textContent()) ?? "";
    const clientRequest = (await page.locator("#pane-client-request pre").textContent()) ?? "";
    expect(clientRequest).toContain('"stop": "STOPPROBE"');
    expect(forwarded).toMatch(/^POST \/v1\/chat\/completions/);
    expect(forwarded).toMatch(/gc-[0-9a-f]{16}/);
    expect(forwarded).not.toContain("STOPPROBE");
    expect(await page.locator("#detail .reason").textContent()).toContain("stop");
    expect(await page.locator("#detail .history .tick").count()).toBe(2);

    // The same cell on direct: the planted value arrives, and is marked.
    await page
      .locator(
        'table[data-client="openai-chat"] .chip[data-verdict="preserved"][data-mode="non-stream"]',
      )
      .first()
      .click();
    expect(
      await page.locator("#pane-forwarded mark", { hasText: "STOPPROBE" }).count(),
    ).toBeGreaterThan(0);

    expect(await page.locator("#diff-regressions + table tbody tr").count()).toBe(dropped.length);
    await page.keyboard.press("Escape");
    await page.fill("#f-search", "");
    await page.screenshot({ path: join("test-output", "report.png") });
    // Self-contained: nothing but the file itself was requested.
    expect(requests.filter((u) => !u.startsWith("file:"))).toEqual([]);
    await page.close();
  });

  it("keeps the header row and field column in view, filters every silent defect, and shows an export command that works", async () => {
    if (!context) throw new Error(`no browser: ${CHROMIUM} missing`);
    const latest = runIds[1] ?? "";
    const page = await context.newPage();
    await page.setViewportSize({ width: 420, height: 500 });
    await page.goto(pathToFileURL(htmlPath).href);

    // Scroll the first matrix table 10 px past the filter bar: its header row stays under
    // the bar, its field column at the left edge after a scroll to the right.
    const table = "table.matrix";
    const rect = (selector: string, side: string) =>
      page.evaluate(
        `document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect().${side}`,
      ) as Promise<number>;
    const barHeight = await rect("#filters", "height");
    const headTop = await page.evaluate(
      `document.querySelector("${table} thead th").getBoundingClientRect().top + window.scrollY`,
    );
    await page.evaluate(`window.scrollTo(0, ${Number(headTop) - barHeight + 10})`);
    // Unstuck, the header would sit 10 px under the bar's edge; stuck, it sits right below it.
    expect(Math.round(await rect("#filters", "top"))).toBe(0);
    expect(Math.round(await rect(`${table} thead th:nth-child(2)`, "top"))).toBe(
      Math.round(await rect("#filters", "bottom")),
    );
    // Scrolled 40 px past the table's left edge (a sticky cell stays inside its table, so
    // the table must be wider than that plus the field column): unstuck it would sit at -40.
    expect(await rect(table, "width")).toBeGreaterThan(
      (await rect(`${table} th.field`, "width")) + 40,
    );
    await page.evaluate(
      `window.scrollTo(document.querySelector("${table}").getBoundingClientRect().left + window.scrollX + 40, window.scrollY)`,
    );
    expect(Math.round(await rect(`${table} th.field`, "left"))).toBe(0);
    await page.evaluate("window.scrollTo(0, 0)");

    // Every silent defect: the cells' own and their side findings.
    const store = openStoreReadonly(join(dir, "gc.db"));
    let expected: number;
    try {
      expected = (
        store.db
          .prepare(
            `SELECT count(*) AS n FROM cells c WHERE c.run_id = ? AND (
               c.verdict IN ('dropped', 'mangled', 'invented', 'leaked') OR EXISTS (
                 SELECT 1 FROM findings f WHERE f.run_id = c.run_id AND f."column" = c."column"
                   AND f.route_id = c.route_id AND f.probe_id = c.probe_id AND f.mode = c.mode))`,
          )
          .get(latest) as { n: number }
      ).n;
    } finally {
      store.close();
    }
    expect(expected).toBeGreaterThan(0);
    await page.selectOption("#f-verdict", "silent");
    expect(await page.locator(".chip[data-cell]:visible").count()).toBe(expected);
    await page.selectOption("#f-verdict", "");

    // The drill-down names the command that writes this attempt; run as shown, it does.
    await page.locator('.chip[data-verdict="dropped"]').first().click();
    const command = (await page.locator("#export-command").textContent()) ?? "";
    expect(command).toMatch(
      /^npx gatecheck export --db \S+ --run \S+ --column \S+ --route '[^']+->[^']+' --probe \S+ --mode \S+ --out cell\.json$/,
    );
    const cli = join(process.cwd(), "scripts", "gatecheck.mjs");
    const exported = await execaCommand(command.replace(/^npx gatecheck/, `node ${cli}`), {
      cwd: dir,
      shell: true,
      reject: false,
    });
    expect(exported.stderr).toBe("");
    expect(exported.exitCode).toBe(0);
    const file = JSON.parse(readFileSync(join(dir, "cell.json"), "utf8")) as { route?: unknown };
    expect(file.route).toBeDefined();
    await page.close();
  });
});
