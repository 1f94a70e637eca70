/**
 * The hang watch: which unanswered attempts count, what resets the run, and the health check
 * against a real listener that answers and one that accepts connections and never answers.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { CORPUS } from "../probes/corpus/index.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import {
  answersHealthCheck,
  countsTowardsHang,
  HangWatch,
  HUNG_AFTER_UNANSWERED,
} from "./hang-watch.ts";
import type { ClientResponse } from "./http-client.ts";

function probe(suffix: string): Probe {
  const found = CORPUS.find((p) => p.id.endsWith(suffix));
  if (!found) throw new Error(`no probe *${suffix} in the corpus`);
  return found;
}

const unanswered: ClientResponse = {
  status: 0,
  headers: [],
  body: Buffer.alloc(0),
  chunks: [],
  timings: { totalMs: 1000 },
  transportError: "timeout after 1000 ms",
};
const answered: ClientResponse = {
  status: 200,
  headers: [],
  body: Buffer.from("{}"),
  chunks: [{ atMs: 3, bytes: 2 }],
  timings: { firstByteMs: 3, totalMs: 4 },
};

describe("HangWatch", () => {
  const immediate = probe("oc-temperature");

  it("asks after N unanswered attempts in a row, and an answer starts the run again", () => {
    const watch = new HangWatch({});
    for (let n = 1; n < HUNG_AFTER_UNANSWERED; n++)
      expect(watch.record(immediate, unanswered)).toBe(false);
    expect(watch.record(immediate, answered)).toBe(false);
    expect(watch.count).toBe(0);
    for (let n = 1; n < HUNG_AFTER_UNANSWERED; n++) watch.record(immediate, unanswered);
    expect(watch.record(immediate, unanswered)).toBe(true);
  });

  it("does not count probes that wait by design: a caller's deadline, a staged delay or error", () => {
    const deadline = probe("failure-deadline-slow-upstream");
    const retry = probe("failure-retry-503-always");
    expect(countsTowardsHang(immediate, {})).toBe(true);
    expect(countsTowardsHang(deadline, {})).toBe(false);
    expect(countsTowardsHang(retry, {})).toBe(false);
    const watch = new HangWatch({});
    for (let n = 0; n < 2 * HUNG_AFTER_UNANSWERED; n++) {
      expect(watch.record(deadline, unanswered)).toBe(false);
      expect(watch.record(retry, unanswered)).toBe(false);
    }
    expect(watch.count).toBe(0);
  });
});

describe("answersHealthCheck", () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
  async function listen(answer: boolean): Promise<string> {
    const server = createServer((_req, res) => {
      if (answer) res.end("ok");
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("is true for any HTTP answer, false for a listener that never answers", async () => {
    const live = await listen(true);
    const hung = await listen(false);
    expect(await answersHealthCheck({ baseUrl: live, readyUrl: `${live}/health` }, 500)).toBe(true);
    expect(await answersHealthCheck({ baseUrl: hung }, 300)).toBe(false);
  });
});
