/**
 * A gateway that logs every request verbatim (as claude-code-router did with `LOG: true`)
 * leaves no client secret in the run folder: its log is kept, redacted, once the column ends.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { CCR_MODELS, ccrConfig } from "../gateways/adapters/claude-code-router.ts";
import { resolveGateway } from "../gateways/registry.ts";
import { FAKE_GATEWAY_MJS } from "../gateways/testing/fake-gateway.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { redactGatewayLogs } from "./gateway-logs.ts";
import { ROUTE_API_KEY, runSweep } from "./run-sweep.ts";
import { testSweepOptions } from "./testing-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-logs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((e) => {
    const p = join(root, e);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

it("a gateway's request log under the run folder holds no client secret after the sweep", async () => {
  const file = join(dir, "logging-gateway.json");
  writeFileSync(
    file,
    JSON.stringify({
      name: "logger",
      version: "1.0.0",
      command: [
        "node",
        FAKE_GATEWAY_MJS,
        "--port={port}",
        "--upstream={mockUrl}",
        "--log-requests",
      ],
      readiness: { path: "/", timeoutMs: 20000 },
      routes: [
        {
          id: "openai-chat->openai-chat",
          client: "openai-chat",
          backend: "openai-chat",
          ingressPath: "/v1/chat/completions",
          headers: { authorization: "Bearer {apiKey}" },
          model: "{model}",
          status: "works",
        },
      ],
    }),
  );
  const column = await resolveGateway(file);
  const result = await runSweep(
    testSweepOptions(dir, {
      columns: [column],
      probes: CORPUS.filter((p) => /^oc-credential-/.test(p.id)),
    }),
  );
  const log = join(dir, "runs", result.runId, "logger@1.0.0", "gateway.log");
  const text = readFileSync(log, "utf8");
  // The gateway did log the requests, and their secrets were replaced by tags.
  expect(text).toMatch(/request \{/);
  expect(text).toMatch(/\[REDACTED/);
  for (const path of filesUnder(join(dir, "runs", result.runId))) {
    const content = readFileSync(path, "utf8");
    for (const secret of [...CANARY_VALUES, ROUTE_API_KEY]) {
      expect(content.includes(secret), `${secret} in ${path}`).toBe(false);
    }
  }
}, 120_000);

it("claude-code-router's request log is off", () => {
  const config = ccrConfig({ port: 1, mockUrl: () => "http://127.0.0.1:2" }, CCR_MODELS);
  expect(config.LOG).toBe(false);
});

it("a link the gateway made in its work folder is not followed: nothing outside is rewritten", () => {
  const outside = join(dir, "outside");
  const workdir = join(dir, "work");
  mkdirSync(outside);
  mkdirSync(workdir);
  const secret = `key ${ROUTE_API_KEY}\n`;
  writeFileSync(join(outside, "app.log"), secret);
  writeFileSync(join(workdir, "gateway.log"), secret);
  symlinkSync(outside, join(workdir, "linked-folder"));
  symlinkSync(join(outside, "app.log"), join(workdir, "linked.log"));
  expect(redactGatewayLogs(workdir, [ROUTE_API_KEY])).toEqual([join(workdir, "gateway.log")]);
  expect(readFileSync(join(workdir, "gateway.log"), "utf8")).not.toContain(ROUTE_API_KEY);
  expect(readFileSync(join(outside, "app.log"), "utf8")).toBe(secret);
});
