import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GatewayError } from "./adapter.ts";
import { gatewayEnv, isCredentialVariable } from "./env.ts";
import { fillPlaceholders, loadGatewayFile, parseGatewayFile } from "./generic.ts";
import { resolveGateway } from "./registry.ts";
import { parseGatewaySpec } from "./spec.ts";
import { FAKE_GATEWAY_JSON } from "./testing/fake-gateway.ts";

const root = mkdtempSync(join(tmpdir(), "gatecheck-cfg-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("gateway specs", () => {
  it("parses name, version and variant, defaulting the version", () => {
    expect(parseGatewaySpec("portkey@1.15.2+locked")).toEqual({
      name: "portkey",
      version: "1.15.2",
      variant: "locked",
    });
    expect(parseGatewaySpec("portkey", () => "1.15.2")).toEqual({
      name: "portkey",
      version: "1.15.2",
    });
    expect(parseGatewaySpec("portkey+locked", () => "1.15.2")).toEqual({
      name: "portkey",
      version: "1.15.2",
      variant: "locked",
    });
  });
  it("refuses malformed specs with a message saying what was expected", () => {
    expect(() => parseGatewaySpec("Port key@1")).toThrow(/expected NAME\[@VERSION\]\[\+VARIANT\]/);
    expect(() => parseGatewaySpec("portkey")).toThrow(/no version given/);
  });
  it("an unknown gateway names the known ones", async () => {
    await expect(resolveGateway("nope")).rejects.toThrow(
      /unknown gateway "nope" \(known: direct, portkey/,
    );
  });
});

describe("gateway environment", () => {
  const from = {
    PATH: "/bin",
    OPENAI_API_KEY: "sk-real",
    ANTHROPIC_API_KEY: "x",
    AWS_SECRET_ACCESS_KEY: "y",
    HTTPS_PROXY: "http://proxy",
    HOME: "/root",
    LANG: "C",
  };
  it("keeps only the allowlist, redirects HOME, and never carries a credential or a proxy", () => {
    const env = gatewayEnv({ workdir: "/run/gw", from });
    expect(env).toMatchObject({
      PATH: "/bin",
      LANG: "C",
      HOME: "/run/gw",
      XDG_CONFIG_HOME: "/run/gw/.config",
    });
    expect(Object.keys(env).filter(isCredentialVariable)).toEqual([]);
    expect(env.HTTPS_PROXY).toBeUndefined();
  });
  it("refuses credential-looking extras, and fake keys that are not gatecheck's", () => {
    expect(() => gatewayEnv({ workdir: "/w", from, extra: { OPENAI_API_KEY: "sk-x" } })).toThrow(
      /refusing credential-like/,
    );
    expect(() =>
      gatewayEnv({ workdir: "/w", from, fakeCredentials: { OPENAI_API_KEY: "sk-real" } }),
    ).toThrow(/gatecheck fake key/);
    expect(
      gatewayEnv({ workdir: "/w", from, fakeCredentials: { OPENAI_API_KEY: "sk-gatecheck-1" } })
        .OPENAI_API_KEY,
    ).toBe("sk-gatecheck-1");
  });
});

describe("user gateway files", () => {
  const valid = JSON.parse(readFileSync(FAKE_GATEWAY_JSON, "utf8"));
  it("loads the fixture and fills placeholders in config files, command and routes", async () => {
    const adapter = await loadGatewayFile(FAKE_GATEWAY_JSON);
    expect(adapter.name).toBe("fake");
    const mockUrl = (d: string) => (d === "anthropic-messages" ? "http://a:1" : "http://o:2");
    const [file] = await adapter.writeConfig({
      spec: { name: "fake", version: "1.0.0" },
      install: { status: "ok", cached: true },
      workdir: root,
      port: 4321,
      mockUrl,
    });
    expect(readFileSync(file ?? "", "utf8")).toBe(
      `listen: 127.0.0.1:4321\nupstream: http://a:1/v1\nhome: ${root}\n`,
    );
    const [route] = adapter.routes({ name: "fake", version: "1.0.0" });
    expect(route?.model("m1")).toBe("fake/m1");
    expect(route?.headers({ mockUrl, apiKey: "sk-canary" })).toEqual({
      authorization: "Bearer sk-canary",
    });
  });
  it("names the file and the JSON path of a schema error", () => {
    const bad = { ...valid, routes: [{ ...valid.routes[0], client: "gemini" }] };
    expect(() => parseGatewayFile(bad, "my.json")).toThrow(/my\.json: routes\.0\.client: /);
    expect(() => parseGatewayFile({ ...valid, command: [] }, "my.json")).toThrow(
      /my\.json: command: /,
    );
  });
  it("refuses unknown placeholders and config paths outside the work folder", () => {
    const typo = { ...valid, command: ["gw", "--port={prot}"] };
    expect(() => parseGatewayFile(typo, "my.json")).toThrow(
      "my.json: command.1: unknown placeholder {prot}",
    );
    const outside = { ...valid, configFiles: [{ path: "../x.yaml", template: "" }] };
    expect(() => parseGatewayFile(outside, "my.json")).toThrow(
      /configFiles\.0\.path: must stay inside/,
    );
    const badDialect = { ...valid, env: { U: "{mockUrl:cohere}" } };
    expect(() => parseGatewayFile(badDialect, "my.json")).toThrow(
      /bad placeholder \{mockUrl:cohere\}/,
    );
  });
  it("reports unreadable and non-JSON files as bad-config errors naming the file", async () => {
    const broken = join(root, "broken.json");
    writeFileSync(broken, "{ not json");
    await expect(loadGatewayFile(broken)).rejects.toThrow(`${broken}: not valid JSON`);
    await expect(loadGatewayFile(join(root, "missing.json"))).rejects.toBeInstanceOf(GatewayError);
  });
  it("fills {mockUrl:<dialect>} per backend", () => {
    const mockUrl = (d: string) => `http://${d}`;
    expect(fillPlaceholders("{mockUrl}|{mockUrl:gemini}|{port}", { mockUrl, port: 1 })).toBe(
      "http://openai-chat|http://gemini|1",
    );
  });
});
