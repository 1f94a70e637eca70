/**
 * Loops in the sweep: every running column's loop routes run every variant after its cells,
 * and each loop is stored with its redacted evidence; a budget that is spent leaves them
 * `not-run` with the reason, never absent.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { wireReplySchema, wireRequestSchema } from "../dialects/wire/messages.ts";
import { direct } from "../gateways/adapters/direct.ts";
import { mockRecordSchema } from "../mock-upstream/record-schema.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { reportSections } from "../results/html/report-sections.ts";
import { loopsOfRun } from "../results/loop-records.ts";
import { loadReportFacts } from "../results/report-facts.ts";
import { loadRunView } from "../results/run-view.ts";
import { openStore } from "../results/store.ts";
import { ROUTE_API_KEY, runSweep } from "../sweep/run-sweep.ts";
import { lossyGateway } from "../sweep/testing-columns.ts";
import { testSweepOptions } from "../sweep/testing-sweep.ts";
import { loopEvidencePath } from "./evidence-file.ts";
import { LOOP_VARIANTS, SECOND_CLIENT_VARIANT } from "./loop-script.ts";

/** Every variant, and the two-client pair, per loop route. */
const PER_ROUTE = [...LOOP_VARIANTS.map((v) => v.id), SECOND_CLIENT_VARIANT];

const dir = mkdtempSync(join(tmpdir(), "gatecheck-loops-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const probes = CORPUS.filter((p) => p.id === "oc-temperature");

/**
 * A loop's evidence in the wire vocabulary: each turn an exchange's client side, and the
 * mock's records as a record file holds them (so `gatecheck check` reads them too).
 */
const evidenceSchema = z.strictObject({
  turns: z.array(
    z.strictObject({
      clientRequest: wireRequestSchema,
      clientResponse: wireReplySchema,
      totalMs: z.number().int().nonnegative(),
    }),
  ),
  forwarded: z.array(mockRecordSchema),
});

it("runs every variant on every loop route of every running column, and stores the evidence", async () => {
  const lossy = lossyGateway();
  const result = await runSweep(
    testSweepOptions(join(dir, "a"), {
      columns: [
        { adapter: direct, spec: { name: "direct", version: "0" } },
        { adapter: lossy, spec: { name: "lossy", version: "1.0.0" } },
      ],
      probes,
    }),
  );
  const store = openStore(result.dbPath);
  try {
    const loops = loopsOfRun(store.db, result.runId, true);
    const byColumn = (column: string) => loops.filter((l) => l.column === column);
    // direct: three routes × every variant and the pair, all completed (the control loop).
    expect(byColumn("direct@0")).toHaveLength(3 * PER_ROUTE.length);
    expect(byColumn("direct@0").every((l) => l.status === "completed")).toBe(true);
    // The lossy gateway drops `stop` and rewrites `temperature`: neither is in a loop.
    expect(byColumn("lossy@1.0.0").map((l) => [l.routeId, l.variant, l.status])).toEqual(
      PER_ROUTE.map((id) => ["openai-chat->openai-chat", id, "completed"]).sort((a, b) =>
        String(a[1]).localeCompare(String(b[1])),
      ),
    );
    const matrix = readFileSync(result.matrixPath, "utf8");
    expect(matrix).toContain("## Agent loops");
    const n = PER_ROUTE.length;
    // Every loop of direct completed and lost nothing: its routes are named once, not rowed.
    expect(matrix).toContain(
      `- direct@0: 3 route(s), ${3 * n} loops: anthropic-messages->anthropic-messages, openai-chat->openai-chat, openai-responses->openai-responses`,
    );
    expect(matrix).not.toContain("| direct@0 | anthropic-messages->anthropic-messages |");
    // Three routes of direct and one of the lossy gateway, each with every variant and the pair.
    const summary = JSON.parse(readFileSync(result.summaryPath, "utf8"));
    expect(summary.loops).toMatchObject({ run: 4 * n, completed: 4 * n, notRun: 0 });
    // The HTML page shows the same section.
    const page = reportSections(loadReportFacts(store, loadRunView(store, result.runId)));
    expect(page.find((s) => s.id === "loops")?.title).toBe("Agent loops");
    for (const loop of loops) {
      const file = join(
        dir,
        "a",
        loopEvidencePath(result.runId, loop.column, loop.routeId, loop.variant),
      );
      expect(readFileSync(file, "utf8")).toBe(loop.evidence);
      const parsed = JSON.parse(loop.evidence ?? "{}") as Record<string, unknown>;
      // The pair keeps client A's loop and client B's.
      const parts = "first" in parsed ? [parsed.first, parsed.second] : [parsed];
      for (const one of parts.map((p) => evidenceSchema.parse(p))) {
        expect(one.turns).toHaveLength(2);
        expect(one.forwarded).toHaveLength(2);
      }
      expect(loop.evidence).not.toContain(ROUTE_API_KEY);
    }
  } finally {
    store.close();
  }
});

it("a spent budget leaves every loop not-run with the reason", async () => {
  const result = await runSweep(
    testSweepOptions(join(dir, "b"), {
      columns: [{ adapter: direct, spec: { name: "direct", version: "0" } }],
      probes,
      // No work time at all: everything is reserved for the report.
      minutes: 0.01,
      reportReserveMs: 600,
    }),
  );
  const store = openStore(result.dbPath);
  try {
    const loops = loopsOfRun(store.db, result.runId);
    expect(loops).toHaveLength(3 * PER_ROUTE.length);
    expect(new Set(loops.map((l) => `${l.status}: ${l.reason}`))).toEqual(
      new Set(["not-run: budget: the sweep's time ran out"]),
    );
  } finally {
    store.close();
  }
});
