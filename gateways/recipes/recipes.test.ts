import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CCR_MODELS, ccrConfig } from "../adapters/claude-code-router.ts";
import { pidAlive } from "../process-group.ts";
import { startGateway } from "../start.ts";
import { FAKE_GATEWAY_MJS } from "../testing/fake-gateway.ts";
import { startTinyMock } from "../testing/tiny-mock.ts";
import { anyLlmConfigYaml } from "./any-llm.ts";
import { AXONHUB_UNAVAILABLE, axonhub } from "./attach-only.ts";
import { BIFROST_UNAVAILABLE, bifrost, bifrostConfig } from "./bifrost.ts";
import { gomodelEnvironment } from "./gomodel.ts";
import { litellm, litellmConfigYaml } from "./litellm.ts";
import { prefixedRows } from "./recipe-kit.ts";
import { switchyardToml } from "./switchyard.ts";

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/recipes/${name}`, import.meta.url)), "utf8");
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const ctx = { mockUrl: () => "http://127.0.0.1:45999", port: 18080, workdir: "/run/gc" };
const root = mkdtempSync(join(tmpdir(), "gatecheck-recipes-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("recipe config writers write what each gateway's docs describe", () => {
  it("LiteLLM: one wildcard deployment per provider, api_base at the mock", () => {
    expect(litellmConfigYaml(ctx)).toBe(fixture("litellm.yaml"));
  });
  it("LiteLLM: the sweep's model declared a reasoning model in every group, as a user declares theirs", () => {
    const yaml = litellmConfigYaml({ ...ctx, models: ["gatecheck-mock-model"] });
    expect(yaml).toBe(fixture("litellm-declared.yaml"));
    // One exact deployment per model group (4 providers, 4 strict providers), each with
    // model_info; a wildcard's model_info would be registered under `<provider>/*`, which
    // LiteLLM never looks up for a concrete model.
    const declared = yaml.match(/model_name: "[^"*]+\/gatecheck-mock-model"/g) ?? [];
    expect(declared).toHaveLength(8);
    expect(yaml.match(/model_info:\n {6}supports_reasoning: true/g)).toHaveLength(8);
    expect(yaml).not.toMatch(/drop_params: true|allowed_openai_params/);
  });
  it("LiteLLM: Messages to DeepSeek is Messages where the release calls DeepSeek's Anthropic API", () => {
    const ids = (version: string) =>
      litellm
        .routes({ name: "litellm", version })
        .map((r) => r.id)
        .filter((id) => id.includes("@deepseek"));
    expect(ids("1.96.2")).toEqual([
      "openai-chat->openai-chat@deepseek",
      "anthropic-messages->anthropic-messages@deepseek",
    ]);
    expect(ids("1.83.9")).toEqual([
      "openai-chat->openai-chat@deepseek",
      "anthropic-messages->openai-chat@deepseek",
    ]);
  });
  it("Bifrost: file mode, config store off, base_url at the mock", () => {
    expect(json(bifrostConfig(ctx))).toBe(fixture("bifrost.config.json"));
  });
  it("Switchyard: one client, target and passthrough route per format", () => {
    expect(switchyardToml(ctx)).toBe(fixture("switchyard.toml"));
  });
  it("GoModel: base URLs in the environment, keys only as fake gatecheck keys", () => {
    const env = gomodelEnvironment(ctx);
    expect(json(env)).toBe(fixture("gomodel.env.json"));
    for (const key of Object.values(env.keys)) expect(key).toContain("gatecheck");
  });
  it("any-llm: providers with api_base, SQLite in the work folder", () => {
    expect(anyLlmConfigYaml(ctx)).toBe(fixture("any-llm.yaml"));
  });
  it("claude-code-router: one provider per backend flavour, loopback host", () => {
    expect(json(ccrConfig(ctx, CCR_MODELS))).toBe(fixture("claude-code-router.config.json"));
  });
  it("every recipe's mock URL comes from the context, none is hard-coded", () => {
    const other = { ...ctx, mockUrl: () => "http://127.0.0.1:1" };
    for (const text of [litellmConfigYaml(other), switchyardToml(other), anyLlmConfigYaml(other)]) {
      expect(text).not.toContain("45999");
    }
  });
});

describe("recipe launch", () => {
  it("Bifrost without a binary is not-run with the reason no registry can build it", async () => {
    const saved = process.env.PATH;
    process.env.PATH = join(root, "empty");
    try {
      const started = await startGateway(
        bifrost,
        { name: "bifrost", version: "system" },
        {
          workdir: join(root, "absent"),
          mockUrl: () => "http://127.0.0.1:1",
        },
      );
      expect(started).toMatchObject({
        status: "not-run",
        reason: `bifrost@system: ${BIFROST_UNAVAILABLE}; run it yourself and pass --attach bifrost=URL (or put \`bifrost\` on PATH)`,
      });
      expect(BIFROST_UNAVAILABLE).toBe(
        "cannot be built from a registry: its npm package downloads its binary at install time, and its Go module embeds a UI folder the module does not contain",
      );
    } finally {
      process.env.PATH = saved;
    }
  });

  it("launches the binary found on PATH with the recipe's flags and config, then stops it", async () => {
    // A stand-in `bifrost` that checks its flags and runs the fake gateway on -port.
    const bin = join(root, "bin");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, "bifrost"),
      `#!/bin/sh\n[ "$1" = "-app-dir" ] && [ -f "$2/config.json" ] && [ "$4" = "127.0.0.1" ] || { echo "bad args $*"; exit 9; }\nexec "${process.execPath}" "${FAKE_GATEWAY_MJS}" --port=$6 --upstream=http://127.0.0.1:1\n`,
    );
    chmodSync(join(bin, "bifrost"), 0o755);
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved}`;
    const mock = await startTinyMock();
    try {
      const started = await startGateway(
        bifrost,
        { name: "bifrost", version: "system" },
        {
          workdir: join(root, "run"),
          mockUrl: () => mock.url,
        },
      );
      if (started.status !== "running")
        throw new Error(`${started.reason}\n${started.logTail?.join("\n")}`);
      expect(readFileSync(join(root, "run", "bifrost", "config.json"), "utf8")).toContain(mock.url);
      const pid = started.gateway.pid ?? -1;
      expect((await started.gateway.stop()).gone).toBe(true);
      expect(pidAlive(pid)).toBe(false);
    } finally {
      process.env.PATH = saved;
      await mock.close();
    }
  });

  it("an attach-only gateway without a URL is not-run, never launched", async () => {
    const started = await startGateway(
      axonhub,
      { name: "axonhub", version: "attached" },
      {
        workdir: join(root, "axonhub"),
        mockUrl: () => "http://127.0.0.1:1",
      },
    );
    expect(started).toMatchObject({
      status: "not-run",
      reason: `axonhub@attached: ${AXONHUB_UNAVAILABLE}; attach-only: run it yourself and pass --attach axonhub=URL`,
    });
    expect(AXONHUB_UNAVAILABLE).toBe(
      "cannot be built from a registry: its go.mod has local replace directives",
    );
  });
});

describe("prefixedRows", () => {
  it("makes one route per [client, backend, prefix] on the client's ingress", () => {
    const rows = prefixedRows({ "openai-chat": "/v1/chat/completions" }, [
      ["openai-chat", "ollama", "ollama_chat"],
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: "openai-chat->ollama",
      backend: "ollama",
      ingressPath: "/v1/chat/completions",
    });
    expect(rows[0]?.model("m")).toBe("ollama_chat/m");
  });

  it("refuses a row whose client has no ingress path", () => {
    expect(() => prefixedRows({}, [["openai-chat", "gemini", "gemini"]])).toThrow(
      /no ingress path/,
    );
  });
});
