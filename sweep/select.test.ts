import { describe, expect, it } from "vitest";
import type { GatewayAdapter } from "../gateways/adapter.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { defaultColumns, parseList, probeGlob, SelectionError, selectProbes } from "./select.ts";

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
