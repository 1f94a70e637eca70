/**
 * Nothing lost under abuse: a body nested ten thousand deep, control API specs too large or
 * too deep, a body that never ends, a request through a name that is not the mock's.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exposedWarning, hostProblem, isLoopback } from "./host-guard.ts";
import { MockError, type MockHandle, newNonce, startMock } from "./index.ts";
import { rawRequest } from "./test-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-abuse-"));
const open: MockHandle[] = [];
afterAll(async () => {
  await Promise.all(open.map((m) => m.close().catch(() => {})));
  rmSync(dir, { recursive: true, force: true });
});

async function mock(options: Parameters<typeof startMock>[0] = {}): Promise<MockHandle> {
  const m = await startMock(options);
  open.push(m);
  return m;
}

const DEPTH = 10_000;
const JSON_TYPE = { "content-type": "application/json" };

describe(`a request nested ${DEPTH} levels deep`, () => {
  it("is answered and recorded, in memory, through the API and in the file", async () => {
    const file = join(dir, "deep.jsonl");
    const m = await mock({ recordFile: file });
    const nonce = newNonce();
    const deep = `${"[".repeat(DEPTH)}"bottom"${"]".repeat(DEPTH)}`;
    // One on one line, one with line breaks (the record must still be one line).
    for (const sep of ["", "\n"]) {
      const body = `{"model":"m",${sep}"messages":[{"role":"user","content":"${nonce}"}],"deep":${deep}}`;
      const res = await rawRequest(m.url, { path: "/v1/chat/completions", body });
      expect(res.status).toBe(200);
    }
    const records = m.records({ nonce });
    expect(records).toHaveLength(2);
    let value: unknown = (JSON.parse(records[1]?.request.body.data ?? "{}") as { deep: unknown })
      .deep;
    for (let i = 0; i < DEPTH; i++) value = (value as unknown[])[0];
    expect(value).toBe("bottom");
    const api = await fetch(`${m.url}/__gatecheck/records?nonce=${nonce}`);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { records: unknown[] }).records).toHaveLength(2);
    await m.close();
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(JSON.parse(line).nonce).toBe(nonce);
  });
});

describe("the control API's limits", () => {
  it("refuses a spec nested too deep with a JSON 400 that names the limit", async () => {
    const m = await mock();
    const deep = `{"reply":{"body":{"json":${"[".repeat(DEPTH)}1${"]".repeat(DEPTH)}}}}`;
    const res = await fetch(`${m.url}/__gatecheck/replies`, {
      method: "POST",
      headers: JSON_TYPE,
      body: deep,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      error: `staged spec nests ${DEPTH + 3} levels deep; the limit is 128`,
    });
    // In process too: the same limit, as a MockError.
    let value: unknown = 1;
    for (let i = 0; i < DEPTH; i++) value = [value];
    expect(() => m.stage({ reply: { body: { json: value } } })).toThrow(MockError);
    expect(() => m.stage({ reply: { body: { json: value } } })).toThrow(/limit is 128/);
    // A spec within the limit still stages.
    const fine = await fetch(`${m.url}/__gatecheck/replies`, {
      method: "POST",
      headers: JSON_TYPE,
      body: JSON.stringify({ reply: { body: { json: [[[[1]]]] } } }),
    });
    expect(fine.status).toBe(201);
  });

  it("refuses a spec over 16 MiB with a JSON 413 before reading it whole", async () => {
    const m = await mock();
    const huge = `{"reply":{"body":{"text":"${"x".repeat(17 * 1024 * 1024)}"}}}`;
    const res = await fetch(`${m.url}/__gatecheck/replies`, {
      method: "POST",
      headers: JSON_TYPE,
      body: huge,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(/limit of 16777216 bytes/);
    const health = (await (await fetch(`${m.url}/__gatecheck/health`)).json()) as {
      staged: number;
    };
    expect(health.staged).toBe(0);
  });
});

describe("the control API as a whole", () => {
  it("bounds the bytes of every staged spec at once with a JSON 413, freed as specs go", async () => {
    const limit = 1024 * 1024;
    const m = await mock({ stagedBytesLimit: limit });
    const spec = (model: string) =>
      JSON.stringify({ match: { model }, reply: { body: { text: "x".repeat(400 * 1024) } } });
    const stage = (body: string) =>
      fetch(`${m.url}/__gatecheck/replies`, { method: "POST", headers: JSON_TYPE, body });
    expect((await stage(spec("a"))).status).toBe(201);
    expect((await stage(spec("b"))).status).toBe(201);
    const refused = await stage(spec("c"));
    expect(refused.status).toBe(413);
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /over this mock's limit of 1048576 bytes .*stagedBytesLimit, gatecheck mock --staged-limit/,
    );
    // A list is staged whole or not at all.
    const list = await stage(`[${spec("d")},${spec("e")}]`);
    expect(list.status).toBe(413);
    const health = async () =>
      (await (await fetch(`${m.url}/__gatecheck/health`)).json()) as {
        staged: number;
        stagedBytes: number;
      };
    const held = await health();
    expect(held.staged).toBe(2);
    expect(held.stagedBytes).toBeGreaterThan(800 * 1024);
    expect(held.stagedBytes).toBeLessThanOrEqual(limit);
    // GET /replies answers no more than the limit holds.
    const listed = await (await fetch(`${m.url}/__gatecheck/replies`)).text();
    expect(listed.length).toBeLessThan(limit + 4096);
    // In process: the same bound, as MockError("staged-limit").
    let thrown: unknown;
    try {
      m.stage(JSON.parse(spec("f")));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MockError);
    expect((thrown as MockError).code).toBe("staged-limit");
    // A spec used up gives its bytes back; so does dropping them all.
    const used = await rawRequest(m.url, {
      path: "/v1/chat/completions",
      body: '{"model":"a","messages":[]}',
    });
    expect(used.status).toBe(200);
    expect((await health()).staged).toBe(1);
    expect((await stage(spec("c"))).status).toBe(201);
    await fetch(`${m.url}/__gatecheck/replies`, { method: "DELETE" });
    expect(await health()).toMatchObject({ staged: 0, stagedBytes: 0 });
    expect((await stage(`[${spec("d")},${spec("e")}]`)).status).toBe(201);
  });
});

describe("a body that never ends", () => {
  it("is cut off by Node with a 408, and recorded with that status and the bytes that came", async () => {
    const m = await mock({ requestTimeoutMs: 400 });
    const nonce = newNonce();
    const partial = `{"model":"m","messages":[{"role":"user","content":"${nonce}`;
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(m.port, "127.0.0.1");
      let got = "";
      socket.on("data", (d) => {
        got += d.toString("latin1");
      });
      socket.on("close", () => resolve(got));
      socket.on("error", () => {});
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:${m.port}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n${partial}`,
      );
    });
    expect(reply).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const [record] = m.records();
    expect(record?.reply).toMatchObject({ status: 408, staged: false, reason: "request-timeout" });
    expect(record?.bodyBytes).toBe(Buffer.byteLength(partial));
    expect(record?.nonce).toBe(nonce);
  });
});

describe("a request through a name that is not the mock's (DNS rebinding)", () => {
  it("is refused 403 by the control API; traffic is answered and recorded as ever", async () => {
    const m = await mock();
    const evil = `evil.example:${m.port}`;
    const control = await rawRequest(m.url, {
      method: "GET",
      path: "/__gatecheck/records",
      headers: { host: evil },
    });
    expect(control.status).toBe(403);
    expect(JSON.parse(control.body.toString()).error).toMatch(/evil\.example.*DNS rebinding/);
    const stage = await rawRequest(m.url, {
      path: "/__gatecheck/replies",
      headers: { host: evil },
      body: JSON.stringify({ reply: { status: 503 } }),
    });
    expect(stage.status).toBe(403);
    for (const host of [`localhost:${m.port}`, `127.0.0.1:${m.port}`, "[::1]"]) {
      const ok = await rawRequest(m.url, {
        method: "GET",
        path: "/__gatecheck/health",
        headers: { host },
      });
      expect(ok.status, host).toBe(200);
    }
    // A gateway that sends the provider's name as Host still reaches the mock.
    const traffic = await rawRequest(m.url, {
      path: "/v1/chat/completions",
      headers: { host: "api.openai.com" },
      body: '{"model":"m","messages":[]}',
    });
    expect(traffic.status).toBe(200);
    expect(m.records()).toHaveLength(1);
  });

  it("is judged by name: loopback in every spelling, the bound address, nothing else", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "api.localhost", "::1", "[::1]"]) {
      expect(isLoopback(host), host).toBe(true);
    }
    for (const host of ["0.0.0.0", "10.0.0.1", "example.com", "localhost.example.com"]) {
      expect(isLoopback(host), host).toBe(false);
    }
    expect(hostProblem("127.0.0.1", "LOCALHOST:80")).toBeUndefined();
    expect(hostProblem("127.0.0.1", "attacker.test")).toMatch(/not this server's address/);
    // Bound beyond loopback, the guard is off and the command warns instead.
    expect(hostProblem("0.0.0.0", "attacker.test")).toBeUndefined();
    expect(exposedWarning("mock", "0.0.0.0")).toMatch(/beyond loopback/);
    expect(exposedWarning("mock", "127.0.0.1")).toBeUndefined();
  });
});
