import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exchangeJson, parseExchange, parseWireExchange } from "../probes/exchange.ts";
import { judgeExchange } from "../probes/lens/judge-exchange.ts";
import { exportExchange } from "./export-exchange.ts";
import { CELL, FIXTURE, RUN, storeAttempt } from "./testing-stored-attempt.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-export-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("export-exchange", () => {
  it("gives back a stored attempt as the exchange it is, judged as the original bytes", () => {
    const original = parseWireExchange(exchangeJson(readFileSync(FIXTURE, "utf8")), FIXTURE);
    const db = join(dir, "one.db");
    storeAttempt(db, original);
    const exported = exportExchange(db, {
      column: CELL.column,
      route: CELL.routeId,
      probe: "oc-seed",
      mode: "non-stream",
      phase: "main",
      attempt: 1,
    });
    expect(exported.note).toContain(`run ${RUN}`);
    const { note: _, ...stored } = exported;
    const { note: __, ...recorded } = original;
    expect(stored).toEqual(recorded);
    const again = parseExchange(JSON.parse(JSON.stringify(exported)), "exported");
    expect(judgeExchange(again)).toEqual(judgeExchange(parseExchange(original)));
  });

  it("names the cell and attempt it could not find", () => {
    const db = join(dir, "one.db");
    storeAttempt(db, parseWireExchange(exchangeJson(readFileSync(FIXTURE, "utf8")), FIXTURE));
    const base = {
      column: CELL.column,
      route: CELL.routeId,
      mode: "non-stream" as const,
      phase: "main",
    };
    expect(() => exportExchange(db, { ...base, probe: "oc-nope", attempt: 1 })).toThrow(
      /run 2026-11-30T04-20-13Z-c5b1 has no cell .*"probeId":"oc-nope"/,
    );
    expect(() => exportExchange(db, { ...base, probe: "oc-seed", attempt: 2 })).toThrow(
      /has no main attempt 2/,
    );
  });
});
