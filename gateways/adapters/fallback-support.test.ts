import { describe, expect, it } from "vitest";
import { LITELLM_FALLBACK, litellm, litellmConfigYaml } from "../recipes/litellm.ts";
import {
  CCR_FALLBACK_PROVIDER,
  CCR_MODELS,
  ccrConfig,
  claudeCodeRouter,
} from "./claude-code-router.ts";
import { direct } from "./direct.ts";
import { musistudioLlms } from "./musistudio-llms.ts";
import { PORTKEY_FALLBACK, portkey } from "./portkey.ts";

const first = "http://127.0.0.1:1111";
const second = "http://127.0.0.1:2222";
const targets = { primaryUrl: () => first, secondaryUrl: () => second, apiKey: "sk-client" };

describe("fallback capability per gateway", () => {
  it("Portkey: one x-portkey-config with two targets that differ only in custom_host", () => {
    expect(portkey.fallback).toBe(PORTKEY_FALLBACK);
    if (!PORTKEY_FALLBACK.supported || !PORTKEY_FALLBACK.headers) throw new Error("no headers");
    const route = portkey.routes({ name: "portkey", version: "1.15.2" })[1];
    if (!route) throw new Error("no route");
    const headers = PORTKEY_FALLBACK.headers(route, targets);
    const config = JSON.parse(headers["x-portkey-config"] ?? "{}");
    expect(config).toEqual({
      strategy: { mode: "fallback" },
      targets: [
        { provider: "anthropic", custom_host: `${first}/v1`, api_key: "sk-client" },
        { provider: "anthropic", custom_host: `${second}/v1`, api_key: "sk-client" },
      ],
    });
    // No provider header beside the config: the config alone routes the request.
    expect(Object.keys(headers)).not.toContain("x-portkey-provider");
  });

  it("claude-code-router: a fallback provider and chain only when a second target is given", () => {
    const base = { port: 1, mockUrl: () => first };
    expect(ccrConfig(base, CCR_MODELS)).not.toHaveProperty("fallback");
    const withSecond = ccrConfig({ ...base, fallbackMockUrl: () => second }, CCR_MODELS);
    expect(withSecond.fallback).toEqual({ default: [`${CCR_FALLBACK_PROVIDER},gatecheck-model`] });
    expect(withSecond.Providers.at(-1)).toMatchObject({
      name: CCR_FALLBACK_PROVIDER,
      api_base_url: `${second}/v1/chat/completions`,
    });
    expect(claudeCodeRouter.fallback).toMatchObject({
      supported: true,
      routes: ["anthropic-messages->openai-chat"],
    });
  });

  it("LiteLLM: fallback groups on the second listener, named in the request body", () => {
    expect(litellmConfigYaml({ mockUrl: () => first })).not.toContain("gatecheck-fallback");
    const yaml = litellmConfigYaml({ mockUrl: () => first, fallbackMockUrl: () => second });
    expect(yaml).toContain('model_name: "gatecheck-fallback-anthropic"');
    expect(yaml).toContain(`api_base: "${second}/v1"`);
    const route = litellm.routes({ name: "litellm", version: "x" })[1];
    if (!route || !LITELLM_FALLBACK.supported || !LITELLM_FALLBACK.body) throw new Error("no body");
    expect(LITELLM_FALLBACK.body(route, "m")).toEqual({
      fallbacks: ["gatecheck-fallback-anthropic"],
    });
    expect(LITELLM_FALLBACK.routes).not.toContain("openai-responses->openai-responses");
  });

  it("direct and the bare @musistudio/llms engine say why they have none", () => {
    expect(direct.fallback).toMatchObject({ supported: false });
    expect(musistudioLlms.fallback).toMatchObject({ supported: false });
  });
});
