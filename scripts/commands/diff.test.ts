/**
 * The results commands end to end, in-process: flags, files written, exit codes.
 * (diff, report, query and merge share the fixture databases built here.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "../../results/store.ts";
import { FIXTURE_OVERRIDES, writeFixtureRun } from "../../results/testing/fixture-run.ts";
import { EXIT } from "../exit-codes.ts";
import { registerDiff } from "./diff.ts";
import { registerMerge } from "./merge.ts";
import { registerQuery } from "./query.ts";
import { registerReport } from "./report.ts";
import { runCli } from "./testing/run-cli.ts";

let dir: string;
let db: string;
const A = "2026-11-23T02-10-00Z-aaaa";
const B = "2026-11-30T02-10-00Z-bbbb";
const C = "2026-12-01T02-10-00Z-cccc";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-cmd-"));
  db = join(dir, "r.db");
  const store = openStore(db);
  writeFixtureRun(store, { runId: A, startedAt: "2026-11-23T02:10:00.000Z" });
  // B regresses one cell; C is identical to B.
  const regressed = {
    ...FIXTURE_OVERRIDES,
    "direct@0.1.0|oc-tools-strict|openai-chat->openai-chat|stream": {
      verdict: "invented" as const,
      reason: "strict:false appeared",
    },
  };
  writeFixtureRun(store, { runId: B, startedAt: "2026-11-30T02:10:00.000Z", overrides: regressed });
  writeFixtureRun(store, { runId: C, startedAt: "2026-12-01T02:10:00.000Z", overrides: regressed });
  store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

/** Run the CLI in-process; returns stdout, stderr and the exit code it would end with. */
const cli = (...args: string[]) =>
  runCli([registerDiff, registerReport, registerQuery, registerMerge], args);

describe("diff", () => {
  it("exits 1 when a clean cell became a silent defect", async () => {
    const r = await cli("diff", A, B, "--db", db);
    expect(r.code).toBe(EXIT.failed);
    expect(r.out).toContain("## Regressions: clean → silent defect (1)");
    expect(r.out).toContain(
      "direct@0.1.0 openai-chat->openai-chat stream `tools[].function.strict` (oc-tools-strict): preserved → invented",
    );
  });

  it("defaults to the two latest runs, and exits 0 when nothing regressed", async () => {
    const r = await cli("diff", "--db", db, "--json");
    expect(r.code).toBe(EXIT.ok);
    const diff = JSON.parse(r.out);
    expect([diff.runA, diff.runB]).toEqual([B, C]);
    expect(diff.regressions).toEqual([]);
    expect((await cli("diff", B, A, "--db", db)).code).toBe(EXIT.ok);
  });

  it("exits 2 naming a run that is not there", async () => {
    const r = await cli("diff", A, "nope", "--db", db);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain(`no run nope in ${db}`);
  });
});

describe("report", () => {
  it("writes the matrix, the JSON summary and JUnit; JUnit failures exit 1", async () => {
    const md = join(dir, "out", "MATRIX.md");
    const json = join(dir, "out", "summary.json");
    const junit = join(dir, "out", "junit.xml");
    const r = await cli("report", A, "--db", db, "--md", md, "--json", json, "--junit", junit);
    expect(r.code).toBe(EXIT.failed);
    expect(readFileSync(md, "utf8")).toContain(`# gatecheck matrix: run ${A}`);
    expect(JSON.parse(readFileSync(json, "utf8")).runId).toBe(A);
    expect(readFileSync(junit, "utf8")).toContain('failures="4"');
    expect(r.err).toContain("junit: 51 cases, 4 failed, 0 accepted, 3 skipped");
    // The files it wrote, one path a line.
    expect(r.out).toBe(`${md}\n${json}\n${junit}\n`);
  });

  it("accepted losses make a gateway's CI pass on known losses only", async () => {
    const accept = join(dir, "accept.json");
    writeFileSync(
      accept,
      JSON.stringify([
        {
          gateway: "portkey",
          field: "tools[].function.strict",
          verdict: "dropped",
          reason: "tracked",
        },
        {
          gateway: "portkey",
          field: "tool_choice.disable_parallel_tool_use",
          verdict: "mangled",
          reason: "tracked",
        },
        { gateway: "litellm", field: "stop_sequences", verdict: "dropped", reason: "tracked" },
      ]),
    );
    const junit = join(dir, "accepted.xml");
    const r = await cli("report", A, "--db", db, "--junit", junit, "--accept", accept);
    expect(r.code).toBe(EXIT.ok);
    expect(readFileSync(junit, "utf8")).toContain('failures="0"');
    // The same baseline on run B: the new invented cell is not covered and fails.
    expect((await cli("report", B, "--db", db, "--junit", junit, "--accept", accept)).code).toBe(
      EXIT.failed,
    );
  });

  it("a bad accept file exits 2 and writes nothing", async () => {
    const accept = join(dir, "bad-accept.json");
    writeFileSync(accept, JSON.stringify([{ gateway: "portkey", field: "x", verdict: "dropped" }]));
    const junit = join(dir, "never.xml");
    const r = await cli("report", "--db", db, "--junit", junit, "--accept", accept);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain(`${accept}: [0].reason`);
    expect(existsSync(junit)).toBe(false);
  });

  it("prints the JSON summary of the latest run to stdout", async () => {
    const r = await cli("report", "--db", db, "--json");
    expect(JSON.parse(r.out).runId).toBe(C);
    // With files too, stdout stays the summary alone; the files written are named on stderr.
    const md = join(dir, "out", "latest.md");
    const both = await cli("report", "--db", db, "--json", "--md", md);
    expect(JSON.parse(both.out).runId).toBe(C);
    expect(both.err).toBe(`wrote ${md}\n`);
  });
});

describe("query", () => {
  it("answers a SELECT as JSON and refuses a write with exit 2", async () => {
    const r = await cli("query", "SELECT count(*) AS n FROM runs", "--db", db, "--json");
    expect(JSON.parse(r.out)).toEqual([{ n: 3 }]);
    const w = await cli("query", "DELETE FROM runs", "--db", db);
    expect(w.code).toBe(EXIT.usage);
    expect(
      JSON.parse((await cli("query", "SELECT count(*) AS n FROM runs", "--db", db, "--json")).out),
    ).toEqual([{ n: 3 }]);
  });

  it("a missing database is an error, not an empty result", async () => {
    const r = await cli("query", "SELECT 1", "--db", join(dir, "missing.db"));
    expect(r.code).toBe(EXIT.usage);
    expect(existsSync(join(dir, "missing.db"))).toBe(false);
  });
});

describe("merge", () => {
  it("merges databases and says what it did", async () => {
    const out = join(dir, "merged.db");
    const r = await cli("merge", out, db);
    expect(r.code).toBe(EXIT.ok);
    expect(r.out).toContain(`runs ${A}, ${B}, ${C}; 150 cells added`);
  });
});
