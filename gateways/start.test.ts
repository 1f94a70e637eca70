/**
 * A gateway runs with its own working folder and HOME; a work folder given relative to the
 * caller's cwd must still reach it as the same folder (claude-code-router writes
 * `$HOME/.claude.json` and failed to start when HOME was relative).
 */
import { readFileSync, rmSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { afterAll, expect, it } from "vitest";
import { startGateway } from "./start.ts";
import { fakeGatewayAdapter } from "./testing/fake-gateway.ts";
import { startTinyMock } from "./testing/tiny-mock.ts";

const workdir = relative(
  process.cwd(),
  join(process.cwd(), "test-output", `relative-workdir-${process.pid}`),
);
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

it("hands the gateway an absolute HOME when the work folder is given relative", async () => {
  expect(isAbsolute(workdir)).toBe(false);
  const mock = await startTinyMock();
  try {
    const started = await startGateway(
      fakeGatewayAdapter(),
      { name: "fake", version: "1.0.0" },
      {
        workdir,
        mockUrl: () => mock.url,
      },
    );
    if (started.status !== "running") throw new Error(started.reason);
    try {
      const log = readFileSync(started.gateway.logPath ?? "", "utf8");
      const home = /HOME=(\S+)/.exec(log)?.[1] ?? "";
      expect(isAbsolute(home), `gateway saw HOME=${home}`).toBe(true);
    } finally {
      await started.gateway.stop();
    }
  } finally {
    await mock.close();
  }
});
