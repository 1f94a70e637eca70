/**
 * The control API refuses what a web page can send: a foreign Origin, a cross-site or
 * same-site fetch, a body that is not JSON. Scripts, tests and curl (no Origin) still work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockHandle, startMock } from "./index.ts";
import { rawRequest } from "./test-helpers.ts";

let m: MockHandle;
beforeAll(async () => {
  m = await startMock();
});
afterAll(() => m.close());

const SPEC = JSON.stringify({ reply: { status: 503 } });

/** A request as a page's `fetch(url, { method, body, mode: "no-cors" })` sends it. */
function fromPage(path: string, method: string, extra: Record<string, string> = {}) {
  return rawRequest(m.url, {
    method,
    path,
    body: method === "POST" ? SPEC : undefined,
    headers: {
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
      "content-type": "text/plain;charset=UTF-8",
      ...extra,
    },
  });
}

async function staged(): Promise<number> {
  const health = await rawRequest(m.url, { method: "GET", path: "/__gatecheck/health" });
  return (JSON.parse(health.body.toString()) as { staged: number }).staged;
}

const ROUTES = [
  ["POST", "/__gatecheck/replies"],
  ["GET", "/__gatecheck/replies"],
  ["DELETE", "/__gatecheck/replies"],
  ["GET", "/__gatecheck/records"],
  ["POST", "/__gatecheck/reset"],
  ["GET", "/__gatecheck/health"],
] as const;

describe("the control API and web pages", () => {
  it("refuses a cross-site text/plain POST from a page on every route, with a JSON 403", async () => {
    m.reset();
    m.stage({ match: { model: "never-sent" }, reply: { status: 200 } });
    await rawRequest(m.url, { path: "/v1/chat/completions", body: '{"model":"m","messages":[]}' });
    for (const [method, path] of ROUTES) {
      const res = await fromPage(path, method);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.toString()).error).toMatch(/Origin "https:\/\/evil.example"/);
    }
    // Nothing was staged, dropped or wiped.
    expect(await staged()).toBe(1);
    expect(m.records()).toHaveLength(1);
  });

  it("refuses a foreign or null Origin alone, and Sec-Fetch-Site cross-site or same-site alone", async () => {
    const cases: Record<string, string>[] = [
      { origin: "http://127.0.0.1:3000" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const headers of cases) {
      const res = await rawRequest(m.url, { path: "/__gatecheck/reset", method: "POST", headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(res.body.toString()).error).toMatch(/refuses/);
    }
  });

  it("refuses a body whose content type is not JSON with a JSON 415, on every route", async () => {
    for (const [method, path] of ROUTES) {
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
      ]) {
        const res = await rawRequest(m.url, {
          method,
          path,
          body: SPEC,
          headers: { "content-type": type },
        });
        expect(res.status, `${method} ${path} ${type}`).toBe(415);
        expect(JSON.parse(res.body.toString()).error).toMatch(/is not JSON/);
      }
    }
  });

  it("serves scripts: no Origin, the mock's own Origin, same-origin or none, JSON or no content type", async () => {
    const own = new URL(m.url).host;
    const allowed: Record<string, string>[] = [
      {},
      { origin: `http://${own}` },
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" },
      { "content-type": "application/json; charset=utf-8" },
    ];
    for (const headers of allowed) {
      const res = await rawRequest(m.url, {
        path: "/__gatecheck/replies",
        body: SPEC,
        headers,
      });
      expect(res.status, JSON.stringify(headers)).toBe(201);
    }
    // A body of bytes carries no content type (fetch sets none for a Uint8Array).
    const untyped = await fetch(`${m.url}/__gatecheck/replies`, {
      method: "POST",
      body: new TextEncoder().encode(SPEC),
    });
    expect(untyped.status).toBe(201);
    const bare = await rawRequest(m.url, { path: "/__gatecheck/reset", method: "POST" });
    expect(bare.status).toBe(200);
  });

  it("leaves traffic alone: a gateway's request with any Origin is answered and recorded", async () => {
    m.reset();
    const res = await rawRequest(m.url, {
      path: "/v1/chat/completions",
      body: '{"model":"m","messages":[]}',
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(res.status).toBe(200);
    expect(m.records()).toHaveLength(1);
  });
});
