/**
 * The report server's routes as a Hono app (the CLI binds it; tests call `app.request`):
 *   GET /              the latest run's HTML report
 *   GET /runs/:id      one run's report
 *   GET /diff/:a/:b    what changed from run a to run b
 *   GET /api/runs      the runs as JSON, newest first, with counts per verdict
 * The database is opened read-only per request, so a sweep writing it meanwhile is seen
 * on the next page load and never blocked. A page is built once per database state
 * (page-cache.ts): reloading an unchanged run's report costs a stat, not a rebuild.
 */
import { readFileSync } from "node:fs";
import { Hono } from "hono";
import { ResultsError } from "../results-error.ts";
import { loadRunDiff } from "../run-diff-io.ts";
import { summarizeRun } from "../run-summary.ts";
import { openStoreReadonly, type ResultsStore } from "../store.ts";
import { htmlReportOf } from "./build-html-report.ts";
import { renderDiffPage } from "./diff-section.ts";
import { esc } from "./html-escape.ts";
import { databaseState, PageCache } from "./page-cache.ts";

export interface ReportAppOptions {
  dbPath: string;
}

const STATUS_OF = {
  "not-found": 404,
  // A URL naming no possible run names no run.
  "bad-run-id": 404,
  "db-open": 503,
  "schema-version": 503,
} as const satisfies Partial<Record<ResultsError["code"], number>>;

function errorPage(error: unknown): { status: 404 | 500 | 503; html: string } {
  const code = error instanceof ResultsError ? error.code : undefined;
  const status = (code && code in STATUS_OF ? STATUS_OF[code as keyof typeof STATUS_OF] : 500) as
    | 404
    | 500
    | 503;
  const message = error instanceof Error ? error.message : String(error);
  return {
    status,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>gatecheck: ${status}</title></head><body><h1>${status}</h1><p>${esc(message)}</p><p><a href="/">latest run</a> · <a href="/api/runs">runs (JSON)</a></p></body></html>\n`,
  };
}

export function createReportApp(options: ReportAppOptions): Hono {
  const app = new Hono();
  const withStore = <T>(use: (store: ResultsStore) => T): T => {
    const store = openStoreReadonly(options.dbPath);
    try {
      return use(store);
    } finally {
      store.close();
    }
  };
  const cache = new PageCache();
  /** A page by its request path: built once per database state, errors never kept. */
  const page = (key: string, render: (store: ResultsStore) => string) => {
    const state = databaseState(options.dbPath);
    const kept = cache.get(key, state);
    if (kept !== undefined) return { status: 200 as const, html: kept };
    try {
      const html = withStore(render);
      cache.set(key, state, html);
      return { status: 200 as const, html };
    } catch (error) {
      return errorPage(error);
    }
  };

  app.get("/", (c) => {
    const r = page(c.req.path, (store) => htmlReportOf(store, undefined, { serverLinks: true }));
    return c.html(r.html, r.status);
  });
  app.get("/runs/:id", (c) => {
    const r = page(c.req.path, (store) =>
      htmlReportOf(store, c.req.param("id"), { serverLinks: true }),
    );
    return c.html(r.html, r.status);
  });
  app.get("/diff/:a/:b", (c) => {
    const r = page(c.req.path, (store) => {
      const diff = loadRunDiff(store, c.req.param("a"), c.req.param("b"));
      return renderDiffPage(
        diff,
        readFileSync(new URL("./assets/report.css", import.meta.url), "utf8"),
      );
    });
    return c.html(r.html, r.status);
  });
  app.get("/api/runs", (c) => {
    try {
      const runs = withStore((store) =>
        store.listRuns().map((run) => {
          const summary = summarizeRun(run, store.gatewayRuns(run.id), store.cells(run.id));
          return { ...run, totals: summary.totals, report: `/runs/${encodeURIComponent(run.id)}` };
        }),
      );
      return c.json({ runs });
    } catch (error) {
      const r = errorPage(error);
      return c.json({ error: error instanceof Error ? error.message : String(error) }, r.status);
    }
  });
  return app;
}
