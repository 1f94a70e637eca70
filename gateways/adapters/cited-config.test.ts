import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dialectModule } from "../../dialects/registry.ts";
import type { GatewayAdapter, LaunchContext } from "../adapter.ts";
import { cited, referenceProblem, renderFile, uncited, uncitedInConfig } from "../cited.ts";
import { BUILTIN_ADAPTERS } from "../registry.ts";

const root = mkdtempSync(join(tmpdir(), "gatecheck-cited-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const mock = "http://127.0.0.1:45999";

function launchContext(
  adapter: GatewayAdapter,
  workdir: string,
  withFallback: boolean,
): LaunchContext {
  return {
    spec: { name: adapter.name, version: adapter.defaultVersion },
    install: { status: "ok", cached: true },
    workdir,
    port: 18080,
    mockUrl: (_backend, persona) => (persona ? `${mock}/${persona}` : mock),
    models: ["gatecheck-mock-model"],
    ...(withFallback && { fallbackMockUrl: () => "http://127.0.0.1:46000" }),
  };
}

/** Every gateway gatecheck installs itself: the live columns of a default sweep. */
const INSTALLED = BUILTIN_ADAPTERS.filter(
  (a) => (a.source === "npm" || a.source === "pypi") && !a.unavailable,
);

describe("every line gatecheck writes for a gateway cites the gateway's docs or source", () => {
  it("the live gateways are all here", () => {
    expect(INSTALLED.map((a) => a.name).sort()).toEqual(
      [
        "any-llm",
        "claude-code-router",
        "litellm",
        "musistudio-llms",
        "portkey",
        "switchyard",
      ].sort(),
    );
  });

  describe.each(INSTALLED.map((a) => [a.name, a] as const))("%s", (name, adapter) => {
    it.each([false, true])(
      "has a reference on every file line, flag, variable and header (fallback target: %s)",
      (withFallback) => {
        expect(adapter.citedConfig, `${name} has no citedConfig`).toBeDefined();
        const config = adapter.citedConfig?.(
          launchContext(adapter, join(root, name), withFallback),
        );
        if (!config) return;
        expect(uncitedInConfig(config)).toEqual([]);
      },
    );

    it("writes exactly the cited files, nothing else", async () => {
      const workdir = join(root, `${name}-written`);
      const ctx = launchContext(adapter, workdir, true);
      const config = adapter.citedConfig?.(ctx);
      if (!config) throw new Error(`${name} has no citedConfig`);
      const written = await adapter.writeConfig(ctx);
      expect(written.map((p) => relative(workdir, p)).sort()).toEqual(
        Object.keys(config.files).sort(),
      );
      for (const [file, cited] of Object.entries(config.files)) {
        expect(readFileSync(join(workdir, file), "utf8")).toBe(renderFile(cited));
      }
    });

    it("sends the cited routing headers on each route", () => {
      const config = adapter.citedConfig?.(launchContext(adapter, join(root, name), false));
      const apiKey = "<the client's provider key>";
      for (const route of adapter.routes({ name, version: adapter.defaultVersion })) {
        const cited = config?.routeHeaders?.[route.id];
        if (!config?.routeHeaders) continue;
        expect(cited, `${route.id} has no cited headers`).toBeDefined();
        const sent = route.headers({
          mockUrl: (_b, persona) => (persona ? `${mock}/${persona}` : mock),
          apiKey,
        });
        const clientOwn = dialectModule(route.client).requiredHeaders;
        for (const [header, value] of Object.entries(sent)) {
          if (header in clientOwn) continue;
          expect(cited?.[header]?.value, `${route.id}: ${header} is sent but not cited`).toBe(
            value,
          );
        }
      }
    });
  });
});

describe("the citation check can fail", () => {
  it("finds a bare value, an empty reference and an unexplained rig line", () => {
    expect(uncited({ a: "x", b: [cited(1, "")], c: cited(true, "gatecheck docs/x.md") })).toEqual([
      '$.a: "x" is not cited',
      "$.b[0]: no reference",
      "$.c: a rig-only line must say why (choice)",
    ]);
  });
  it("takes a URL, an installed path and an explained rig line", () => {
    for (const ref of [
      "https://docs.litellm.ai/docs/proxy/configs",
      "@portkey-ai/gateway@1.15.2 build/start-server.js (providers/deepseek/api.ts)",
      "litellm@1.96.2 site-packages/litellm/router.py",
    ]) {
      expect(referenceProblem(cited("v", ref))).toBeUndefined();
    }
    expect(referenceProblem(cited("v", "gatecheck docs/gateways.md", "why"))).toBeUndefined();
    expect(referenceProblem(cited("v", "the README"))).toMatch(/neither a URL/);
  });
});
