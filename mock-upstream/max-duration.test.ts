/**
 * A staged delay longer than a timer holds is refused with 400 and the bound, never answered
 * at once (Node fires a longer setTimeout immediately).
 */
import { describe, expect, it } from "vitest";
import { createMockApp } from "./app.ts";
import { MAX_DURATION_MS } from "./max-duration.ts";
import { readJson } from "./test-helpers.ts";

const stage = (app: ReturnType<typeof createMockApp>, body: unknown) =>
  app.request("/__gatecheck/replies", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("staged delays", () => {
  it("refuses each delay above 2^31-1 ms with 400 naming the field and the bound", async () => {
    const app = createMockApp();
    for (const [field, wire] of [
      ["headersDelayMs", { headersDelayMs: 3e9 }],
      ["firstByteDelayMs", { firstByteDelayMs: 3e9 }],
      ["writeDelayMs", { writeDelayMs: MAX_DURATION_MS + 1 }],
    ] as const) {
      const res = await stage(app, { reply: { status: 200, wire } });
      expect(res.status, field).toBe(400);
      expect(JSON.stringify(await readJson(res)), field).toMatch(
        new RegExp(`${field}: a delay is at most 2147483647 ms`),
      );
    }
    const frames = await stage(app, {
      reply: { body: { frames: [{ data: "x", delayMs: 3e9 }] } },
    });
    expect(frames.status).toBe(400);
    expect(JSON.stringify(await readJson(frames))).toMatch(/delayMs: a delay is at most/);
  });

  it("takes the longest delay a timer holds", async () => {
    const res = await stage(createMockApp(), {
      reply: { status: 200, wire: { headersDelayMs: MAX_DURATION_MS } },
    });
    expect(res.status).toBe(201);
  });
});
