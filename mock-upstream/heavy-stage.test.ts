/**
 * A heavy staged spec does not hold traffic: its render check (ten renders of a 20,000-event
 * stream) gives the event loop back between renders, so a plain request sent while it runs
 * is answered before the staging is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockHandle, startMock } from "./index.ts";
import { rawRequest } from "./test-helpers.ts";

let m: MockHandle;
beforeAll(async () => {
  m = await startMock();
});
afterAll(() => m.close());

const HEAVY = JSON.stringify({
  match: { model: "heavy" },
  reply: {
    body: {
      canonical: { parts: [{ type: "text", text: "x".repeat(20_000) }] },
      stream: true,
      plan: { textChunkSize: 1 },
    },
  },
});

describe("staging a heavy canonical stream", () => {
  it("answers a plain request sent meanwhile before it answers the staging", async () => {
    const order: string[] = [];
    const staging = rawRequest(m.url, { path: "/__gatecheck/replies", body: HEAVY }, 60_000).then(
      (res) => {
        order.push(`staged ${res.status}`);
      },
    );
    // Sent once the check is surely under way: it takes ten renders, this waits for none.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const plain = await rawRequest(m.url, {
      path: "/v1/chat/completions",
      body: '{"model":"m","messages":[]}',
    });
    order.push(`plain ${plain.status}`);
    await staging;
    expect(order).toEqual(["plain 200", "staged 201"]);
    // And the spec is staged, rendered when its request comes.
    const heavy = await rawRequest(
      m.url,
      { path: "/v1/chat/completions", body: '{"model":"heavy","messages":[],"stream":true}' },
      60_000,
    );
    expect(heavy.status).toBe(200);
    expect(m.records().at(-1)?.reply.staged).toBe(true);
  }, 120_000);
});
