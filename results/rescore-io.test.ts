import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { bulkWriteSettings } from "./rescore-io.ts";
import { openStore } from "./store.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-rescore-io-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("bulk write settings raise the cache and stop automatic checkpoints, then give back what was there", () => {
  const store = openStore(join(dir, "bulk.db"));
  const settings = () => ({
    cache: store.db.pragma("cache_size", { simple: true }),
    autocheckpoint: store.db.pragma("wal_autocheckpoint", { simple: true }),
  });
  try {
    const before = settings();
    const restore = bulkWriteSettings(store);
    expect(settings()).toEqual({ cache: -128 * 1024, autocheckpoint: 0 });
    restore();
    expect(settings()).toEqual(before);
    // Restoring twice, or after the connection closed, is harmless.
    restore();
    store.close();
    restore();
  } finally {
    if (store.db.open) store.close();
  }
});
