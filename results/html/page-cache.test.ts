import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStoreReadonly } from "../store.ts";
import { databaseState, PageCache } from "./page-cache.ts";
import { addLaterRun, writeSampleRuns } from "./testing/sample-runs.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-page-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("databaseState", () => {
  it("stays the same while nothing writes, and changes with a write", () => {
    const dbPath = join(dir, "state.db");
    writeSampleRuns(dbPath);
    const before = databaseState(dbPath);
    expect(databaseState(dbPath)).toBe(before);
    addLaterRun(dbPath);
    expect(databaseState(dbPath)).not.toBe(before);
  });

  it("is not changed by a read-only open, which creates an empty write-ahead log", () => {
    const dbPath = join(dir, "opened.db");
    writeSampleRuns(dbPath);
    const before = databaseState(dbPath);
    openStoreReadonly(dbPath).close();
    expect(databaseState(dbPath)).toBe(before);
  });

  it("names a missing database as a state of its own", () => {
    expect(databaseState(join(dir, "none.db"))).toBe("-|-");
  });
});

describe("PageCache", () => {
  it("gives a page back only for the state it was built in", () => {
    const cache = new PageCache();
    cache.set("/", "s1", "<p>one</p>");
    expect(cache.get("/", "s1")).toBe("<p>one</p>");
    expect(cache.get("/", "s2")).toBeUndefined();
    expect(cache.get("/runs/x", "s1")).toBeUndefined();
  });

  it("keeps the newest pages up to its limit", () => {
    const cache = new PageCache(2);
    cache.set("/a", "s", "a");
    cache.set("/b", "s", "b");
    cache.set("/a", "s", "a2"); // set again: now the newest
    cache.set("/c", "s", "c");
    expect(cache.get("/b", "s")).toBeUndefined();
    expect(cache.get("/a", "s")).toBe("a2");
    expect(cache.get("/c", "s")).toBe("c");
  });
});
