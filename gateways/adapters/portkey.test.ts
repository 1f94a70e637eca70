import { describe, expect, it } from "vitest";
import { dialectOfPath } from "../../dialects/routes.ts";
import { providerMount } from "../../mock-upstream/personas/mounts.ts";
import { PORTKEY_FALLBACK, PORTKEY_ROUTES, portkey, portkeyForwardedPath } from "./portkey.ts";

const mock = "http://127.0.0.1:45999";

describe("Portkey custom hosts stand for the provider's own base URL", () => {
  // Portkey calls custom host + the provider's endpoint path (its getFullURL); a custom host
  // with one path segment too many sent every DeepSeek request to /v1/v1/chat/completions.
  it.each(PORTKEY_ROUTES.filter((r) => r.status === "works").map((r) => [r.id, r] as const))(
    "%s: the path Portkey calls is one its backend serves",
    (_id, row) => {
      const path = portkeyForwardedPath(row, mock);
      const mount = "persona" in row ? providerMount(row.persona, row.backend)?.at : undefined;
      expect(path).not.toMatch(/\/v1\/v1\//);
      expect(dialectOfPath(path, mount)?.dialect, path).toBe(row.backend);
    },
  );

  it("DeepSeek's Chat API: the custom host is the bare host, as api.deepseek.com is", () => {
    const route = portkey
      .routes({ name: "portkey", version: "1.15.2" })
      .find((r) => r.id === "openai-chat->openai-chat@deepseek");
    const headers = route?.headers({ mockUrl: () => mock, apiKey: "sk-x" });
    expect(headers?.["x-portkey-custom-host"]).toBe(mock);
  });

  it("DeepSeek's Anthropic API: <host>/anthropic/v1, so /messages lands on /anthropic/v1/messages", () => {
    const row = PORTKEY_ROUTES.find(
      (r) => r.id === "anthropic-messages->anthropic-messages@deepseek",
    );
    if (!row) throw new Error("no row");
    expect(portkeyForwardedPath(row, mock)).toBe("/anthropic/v1/messages");
  });

  it("fallback targets use the same custom host as the route", () => {
    if (!PORTKEY_FALLBACK.supported || !PORTKEY_FALLBACK.headers) throw new Error("no headers");
    const route = portkey
      .routes({ name: "portkey", version: "1.15.2" })
      .find((r) => r.id === "openai-chat->openai-chat@deepseek");
    if (!route) throw new Error("no route");
    const config = JSON.parse(
      PORTKEY_FALLBACK.headers(route, {
        primaryUrl: () => mock,
        secondaryUrl: () => "http://127.0.0.1:2",
        apiKey: "sk-x",
      })["x-portkey-config"] ?? "{}",
    );
    expect(config.targets.map((t: { custom_host: string }) => t.custom_host)).toEqual([
      mock,
      "http://127.0.0.1:2",
    ]);
  });
});
