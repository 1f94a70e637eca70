import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { doctorReportSchema } from "../../gateways/doctor-report.ts";
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

  it("doctor --json: the route checks as data in the documented shape, text on stderr", () => {
    const out = run("doctor", FAKE_GATEWAY_JSON, "--timeout", "15000", "--json");
    expect(out.status).toBe(EXIT.ok);
    const printed = JSON.parse(out.stdout);
    // Nothing beyond the documented schema: parsing (which drops unknown keys) changes nothing.
    const report = doctorReportSchema.parse(printed);
    expect(report).toEqual(printed);
    expect(report).toMatchObject({ gateway: "fake@1.0.0", status: "ok" });
    expect(report.stopped).toEqual({ how: "sigterm", gone: true });
    expect(report.checks.map((c) => [c.route, c.mode, c.worked, c.asDocumented])).toEqual([
      ["openai-chat->openai-chat", "non-stream", true, true],
      ["openai-chat->openai-chat", "stream", true, true],
    ]);
    expect(report.checks[1]?.reached).toEqual(["/v1/chat/completions"]);
    expect(out.stderr).toContain("fake@1.0.0: doctor ok (2/2 checks worked");
  });

  it("doctor --json of a route that fails against its table: status failed, exit 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatecheck-doctor-json-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    // The lossy gateway told a base URL with `/v1` too many: every request misrouted.
    const fixtures = join(import.meta.dirname, "..", "..", "sweep", "fixtures");
    const gateway = JSON.parse(readFileSync(join(fixtures, "lossy-gateway.json"), "utf8"));
    gateway.command[1] = join(fixtures, "lossy-gateway.mjs");
    gateway.routes[0].headers["x-lossy-upstream-base"] = "{mockUrl}/v1";
    writeFileSync(join(dir, "misrouted.json"), JSON.stringify(gateway));
    const out = run("doctor", join(dir, "misrouted.json"), "--json");
    expect(out.status).toBe(EXIT.failed);
    const report = doctorReportSchema.parse(JSON.parse(out.stdout));
    expect(report.status).toBe("failed");
    expect(report.reason).toContain("check(s) differ from the documented route table");
    expect(report.checks.every((c) => !c.worked && !c.asDocumented)).toBe(true);
    expect(report.checks[0]?.reached).toEqual(["/v1/v1/chat/completions"]);
    expect(report.checks[0]?.preflight?.unservedPath).toBe(true);
  });

  it("doctor --json of a gateway that cannot start: status not-run, exit 1", () => {
    const out = run("doctor", "bifrost", "--json");
    expect(out.status).toBe(EXIT.failed);
    const report = doctorReportSchema.parse(JSON.parse(out.stdout));
    expect(report).toMatchObject({ gateway: "bifrost@system", status: "not-run", checks: [] });
    expect(report.reason).toContain("cannot be built from a registry");
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
