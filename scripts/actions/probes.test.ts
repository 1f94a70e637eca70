import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CORPUS } from "../../probes/corpus/index.ts";
import { CliError } from "../exit-codes.ts";
import { loadProbes } from "./probes.ts";

const userProbe = {
  id: "oc-user-seed",
  client: "openai-chat",
  axis: "request",
  field: "seed",
  request: { seed: 11 },
  modes: ["non-stream"],
  severity: "low",
  note: "11 arrives as 11",
};

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("loadProbes", () => {
  it("adds the probes of every *.json file in the folder to the corpus", async () => {
    dir = await mkdtemp(join(tmpdir(), "gc-probes-"));
    await writeFile(join(dir, "mine.json"), JSON.stringify([userProbe]));
    await writeFile(join(dir, "notes.txt"), "not a probe file");
    const probes = await loadProbes(dir);
    expect(probes).toHaveLength(CORPUS.length + 1);
    expect(probes.at(-1)?.id).toBe("oc-user-seed");
  });

  it("stops with a usage error naming the file and path when any file is bad", async () => {
    dir = await mkdtemp(join(tmpdir(), "gc-probes-"));
    await writeFile(join(dir, "a.json"), JSON.stringify([userProbe]));
    await writeFile(
      join(dir, "b.json"),
      JSON.stringify([{ ...userProbe, id: "oc-x", modes: "stream" }]),
    );
    const error = await loadProbes(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    expect((error as CliError).message).toMatch(/b\.json: \$\[0\]\.modes: /);
  });

  it("refuses a folder that cannot be read", async () => {
    await expect(loadProbes("/nonexistent/gatecheck-probes")).rejects.toThrow(/--probes-dir/);
  });
});
