import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createReportApp } from "./report-app.ts";
import { addLaterRun, HOSTILE, writeSampleRuns } from "./testing/sample-runs.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-serve-"));
const dbPath = join(dir, "gc.db");
const [older, newer] = writeSampleRuns(dbPath);
const app = createReportApp({ dbPath });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("report app", () => {
  it("serves the latest run at /", async () => {
    const res = await app.request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain(`run ${newer}`);
    expect(html).not.toContain(HOSTILE);
    // Served pages link the other runs and the diff from them to this one.
    expect(html).toContain(`<a href="/runs/${older}">`);
    const diff = /href="(\/diff\/[^"]+)"/.exec(html)?.[1] ?? "";
    expect(diff).toBe(`/diff/${older}/${newer}`);
    expect((await app.request(diff)).status).toBe(200);
  });

  it("serves a named run, and 404s an unknown one with its name", async () => {
    expect(await (await app.request(`/runs/${older}`)).text()).toContain(`run ${older}`);
    const missing = await app.request("/runs/no-such-run");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("no run no-such-run");
  });

  it("404s a run id that is not one, saying so, and escapes it in the page", async () => {
    const res = await app.request(`/runs/${encodeURIComponent("..<b>x")}`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("is not a run id");
    expect(html).not.toContain("<b>x");
  });

  it("diffs two runs: the lossy gateway's stop is a regression", async () => {
    const res = await app.request(`/diff/${older}/${newer}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Regressions: clean → silent defect (2)");
    expect(html).toContain("Fixed: silent defect → clean (0)");
    const back = await (await app.request(`/diff/${newer}/${older}`)).text();
    expect(back).toContain("Fixed: silent defect → clean (2)");
  });

  it("lists runs as JSON, newest first, with totals", async () => {
    const res = await app.request("/api/runs");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      runs: { id: string; totals: Record<string, number>; report: string }[];
    };
    expect(body.runs.map((r) => r.id)).toEqual([newer, older]);
    expect(body.runs[0]?.totals).toMatchObject({
      cells: 12,
      dropped: 2,
      "not-run": 4,
      preserved: 6,
    });
    expect(body.runs[0]?.report).toBe(`/runs/${newer}`);
  });

  it("a run written after a page was served shows on the next load", async () => {
    const ownPath = join(dir, "changing.db");
    writeSampleRuns(ownPath);
    const own = createReportApp({ dbPath: ownPath });
    expect(await (await own.request("/")).text()).toContain(`run ${newer}`);
    expect(await (await own.request("/")).text()).toContain(`run ${newer}`);
    const later = addLaterRun(ownPath);
    expect(await (await own.request("/")).text()).toContain(`run ${later}`);
  });

  it("a missing database is a 503 that names the file, not a crash", async () => {
    const res = await createReportApp({ dbPath: join(dir, "nope.db") }).request("/api/runs");
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toContain("nope.db");
  });
});
