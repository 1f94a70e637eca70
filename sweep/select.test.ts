import { describe, expect, it } from "vitest";
import { type GatewayAdapter, gatewayLabel } from "../gateways/adapter.ts";
import { BUILTIN_ADAPTERS } from "../gateways/registry.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import {
  defaultColumns,
  parseList,
  probeGlob,
  refuseDuplicateColumns,
  SelectionError,
  selectProbes,
} from "./select.ts";

const adapter = (over: Partial<GatewayAdapter>): GatewayAdapter =>
  ({
    name: "x",
    defaultVersion: "1.0.0",
    source: "npm",
    routes: () => [],
    ...over,
  }) as GatewayAdapter;

describe("defaultColumns", () => {
  it("takes npm gateways with their variants, direct, and binaries found on PATH", () => {
    const columns = defaultColumns(
      [
        adapter({ name: "direct", source: "none", defaultVersion: "0" }),
        adapter({ name: "portkey", variants: { locked: "pinned deps" } }),
        adapter({ name: "litellm", source: "binary", binary: "litellm" }),
        adapter({ name: "bifrost", source: "binary", binary: "bifrost" }),
        adapter({ name: "axonhub", source: "attach" }),
      ],
      (binary) => binary === "bifrost",
    );
    expect(columns.map((c) => c.spec)).toEqual([
      { name: "direct", version: "0" },
      { name: "portkey", version: "1.0.0" },
      { name: "portkey", version: "1.0.0", variant: "locked" },
      { name: "bifrost", version: "1.0.0" },
    ]);
  });
});

describe("the default sweep's columns", () => {
  it("are every built-in gateway at its pinned version: the npm ones, the reference gateways installed on demand (LiteLLM, Switchyard, GoModel, any-llm) and the two no registry can build, which stay not-run columns", () => {
    const columns = defaultColumns(BUILTIN_ADAPTERS, () => false);
    expect(columns.map((c) => gatewayLabel(c.spec))).toEqual([
      "direct@0",
      "portkey@1.15.2",
      "portkey@1.15.2+locked",
      "claude-code-router@2.0.0",
      "musistudio-llms@1.0.53",
      "litellm@1.96.2",
      "bifrost@system",
      "switchyard@0.3.0",
      "gomodel@0.1.77",
      "any-llm@1.14.0",
      "axonhub@attached",
    ]);
    const unavailable = Object.fromEntries(
      columns.filter((c) => c.adapter.unavailable).map((c) => [c.spec.name, c.adapter.source]),
    );
    expect(unavailable).toEqual({ bifrost: "binary", axonhub: "attach" });
  });
});

describe("refuseDuplicateColumns", () => {
  it("takes two versions or variants of one gateway as two columns and refuses one named twice", () => {
    const col = (version: string, variant?: string) => ({
      spec: { name: "litellm", version, ...(variant ? { variant } : {}) },
    });
    expect(refuseDuplicateColumns([col("1.96.2"), col("1.83.9"), col("1.96.2", "x")])).toHaveLength(
      3,
    );
    expect(() => refuseDuplicateColumns([col("1.96.2"), col("1.83.9"), col("1.96.2")])).toThrow(
      "--gateways names litellm@1.96.2 twice",
    );
  });
});

describe("probe selection", () => {
  const probe = (id: string, client: Probe["client"]) => ({ id, client }) as Probe;
  const probes = [
    probe("am-stop-sequences", "anthropic-messages"),
    probe("oc-stop", "openai-chat"),
  ];

  it("globs ids", () => {
    expect(probeGlob("am-*")("am-stop-sequences")).toBe(true);
    expect(probeGlob("am-*,oc-st?p")("oc-stop")).toBe(true);
    expect(probeGlob("am-*")("oc-stop")).toBe(false);
    expect(probeGlob("a.b")("axb")).toBe(false);
  });

  it("filters by client dialect and refuses an empty selection", () => {
    expect(selectProbes(probes, { dialects: ["openai-chat"] }).map((p) => p.id)).toEqual([
      "oc-stop",
    ]);
    expect(() => selectProbes(probes, { glob: "zz-*" })).toThrow(SelectionError);
  });

  it("parses lists against what is allowed", () => {
    expect(parseList("stream", ["stream", "non-stream"], "--modes")).toEqual(["stream"]);
    expect(() => parseList("streams", ["stream", "non-stream"], "--modes")).toThrow(
      /--modes takes/,
    );
  });
});
