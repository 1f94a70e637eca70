import { describe, expect, it } from "vitest";
import { DIALECT_MODULES } from "../../dialects/registry.ts";
import { getPersona } from "./index.ts";
import { mountsOf, PROVIDER_MOUNTS, providerMount } from "./mounts.ts";

describe("provider mounts", () => {
  it("name a persona, a prefix of the dialect's route they replace, and a reference", () => {
    for (const m of PROVIDER_MOUNTS) {
      expect(getPersona(m.persona), m.persona).toBeDefined();
      expect(DIALECT_MODULES[m.backend].routes.generate("m").startsWith(m.replaces)).toBe(true);
      expect(m.at).toMatch(/^\/[^?]*[^/]$/);
      expect(m.see).toMatch(/^https:\/\//);
    }
  });
  it("are at most one per persona: its listener strips one prefix", () => {
    for (const m of PROVIDER_MOUNTS) expect(mountsOf(m.persona)).toHaveLength(1);
  });
  it("apply to their persona's dialect only", () => {
    expect(providerMount("google", "openai-chat")?.at).toBe("/v1beta/openai");
    expect(providerMount("deepseek", "anthropic-messages")?.at).toBe("/anthropic");
    expect(providerMount("deepseek", "openai-chat")).toBeUndefined();
    expect(providerMount(undefined, "openai-chat")).toBeUndefined();
  });
});
