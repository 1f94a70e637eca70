import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PYTHON_GATEWAYS } from "./python-gateways.ts";
import { LOCK_DIR, readLock, readLockHeader } from "./python-lock.ts";
import { LITELLM_COMPROMISED } from "./recipes/litellm.ts";

const pins = PYTHON_GATEWAYS.flatMap((g) =>
  Object.entries(g.pins).map(([version, pin]) => ({ gateway: g, version, pin })),
);

describe("committed hash locks", () => {
  it.each(pins.map((p) => [`${p.gateway.name}@${p.version}`, p] as const))(
    "%s: the lock says it was resolved from the recipe's pin",
    (_label, { gateway, version, pin }) => {
      const lock = readLock(gateway.name, version);
      expect(
        lock,
        `no lock: run npx tsx gateways/write-lock.ts ${gateway.name}@${version}`,
      ).toBeDefined();
      expect(lock?.header).toEqual({
        inputs: [pin.requirement, ...(pin.constraints ?? []).map((c) => c.spec)],
        resolvedAsOf: pin.resolvedAsOf,
        python: pin.python,
      });
      expect(lock?.packages).toContain(`${gateway.distribution}==${version}`);
    },
  );

  it("every pinned package carries at least one sha256", () => {
    for (const { gateway, version } of pins) {
      const text = readLock(gateway.name, version)?.text ?? "";
      const blocks = text.split(/\n(?=[A-Za-z0-9_.-]+==)/).slice(1);
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks)
        expect(block, block.slice(0, 80)).toMatch(/--hash=sha256:[0-9a-f]{64}/);
    }
  });

  it("no lock is left without a pin, and none names a compromised LiteLLM release", () => {
    const locked = readdirSync(LOCK_DIR).filter((f) => f.endsWith(".txt"));
    expect(locked.sort()).toEqual(pins.map((p) => `${p.gateway.name}@${p.version}.txt`).sort());
    for (const file of locked) {
      const text = readLock(file.split("@")[0] ?? "", file.slice(file.indexOf("@") + 1, -4))?.text;
      for (const bad of LITELLM_COMPROMISED.versions) expect(text).not.toContain(`litellm==${bad}`);
    }
  });

  it("reads a header's inputs and resolution line, and stops at the first package", () => {
    const header = readLockHeader(
      "# x\n# input: a==1\n# input: b<2\n# resolved as of 2026-01-01T00:00:00Z for Python >=3.11, every platform (uv)\na==1 \\\n# input: not-header\n",
    );
    expect(header).toEqual({
      inputs: ["a==1", "b<2"],
      resolvedAsOf: "2026-01-01T00:00:00Z",
      python: "3.11",
    });
  });
});
