import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FAKE_GATEWAY_JSON } from "../../gateways/testing/fake-gateway.ts";
import { EXIT } from "../exit-codes.ts";

const CLI = fileURLToPath(new URL("../gatecheck.mjs", import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, "gateways", ...args], { encoding: "utf8", timeout: 60_000 });

describe("gatecheck gateways", () => {
  it("list --json names every gateway with its routes and source", () => {
    const out = run("list", "--json");
    expect(out.status).toBe(EXIT.ok);
    const rows = JSON.parse(out.stdout) as {
      name: string;
      source: string;
      routes: { id: string; status: string }[];
    }[];
    const portkey = rows.find((r) => r.name === "portkey");
    expect(portkey?.source).toBe("npm");
    expect(portkey?.routes.find((r) => r.id === "anthropic-messages->openai-chat")?.status).toBe(
      "fails",
    );
    expect(rows.find((r) => r.name === "litellm")?.source).toBe("pypi");
    expect(rows.find((r) => r.name === "gomodel")?.source).toBe("go");
    expect(rows.find((r) => r.name === "bifrost")?.source).toBe("binary");
  });

  it("install refuses a malformed spec as a usage error", () => {
    const out = run("install", "Bad Spec");
    expect(out.status).toBe(EXIT.usage);
    expect(out.stderr).toContain('gateway spec "Bad Spec": expected NAME[@VERSION][+VARIANT]');
  });

  it("doctor runs a user-file gateway against the real mock and stops it", () => {
    const out = run("doctor", FAKE_GATEWAY_JSON, "--timeout", "15000");
    expect(out.stderr).toBe("");
    expect(out.status).toBe(EXIT.ok);
    expect(out.stdout).toMatch(/stopped: sigterm, process group gone/);
    expect(out.stdout).toMatch(
      /ok +openai-chat->openai-chat +stream +reached \/v1\/chat\/completions/,
    );
    expect(out.stdout).toContain("fake@1.0.0: doctor ok (2/2 checks worked");
  });

  it("doctor of a gateway no registry can build exits 1 with the reason", () => {
    const out = run("doctor", "bifrost");
    expect(out.status).toBe(EXIT.failed);
    expect(out.stderr).toContain(
      "not-run: bifrost@system: cannot be built from a registry: its npm package downloads its binary at install time",
    );
  });

  it("install takes one gateway or --all, not both and not neither", () => {
    for (const args of [["install"], ["install", "portkey", "--all"]]) {
      const out = run(...args);
      expect(out.status).toBe(EXIT.usage);
      expect(out.stderr).toContain("give one gateway (NAME[@VERSION][+VARIANT]) or --all");
    }
  });
});
