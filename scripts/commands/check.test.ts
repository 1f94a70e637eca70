import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newNonce, startMock } from "../../mock-upstream/index.ts";
import { EXIT } from "../exit-codes.ts";
import { registerCheck } from "./check.ts";
import { runCli } from "./testing/run-cli.ts";

const FIXTURES = join(import.meta.dirname, "..", "..", "probes", "lens", "fixtures");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-check-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli([registerCheck], ["check", ...args]);

describe("gatecheck check", () => {
  const lossy = join(FIXTURES, "anthropic-to-chat-non-stream-lossy.json");

  it("prints a table of field, verdict and reason, and exits 0 whatever it found", async () => {
    const r = await cli(lossy);
    expect(r.code).toBe(EXIT.ok);
    expect(r.out).toMatch(/^Request \(client → backend\)\nfield +verdict +reason\n/);
    expect(r.out).toMatch(/\nstop_sequences +dropped +\["STOPPROBE"\] → absent\n/);
    expect(r.out).toMatch(/\ncredentials\.header\.x-api-key +leaked +/);
    expect(r.out).toContain("Reply (upstream → client)");
    expect(r.out).toMatch(
      /finish_reason +mangled +"length" \(length\) → "stop" \(end_turn\) \[erased-truncation\]/,
    );
  });

  it("prints JSON verdicts with --json", async () => {
    const r = await cli(lossy, "--json");
    const verdicts = JSON.parse(r.out) as { field: string; verdict: string }[];
    expect(verdicts.find((v) => v.field === "stop_sequences")?.verdict).toBe("dropped");
  });

  it("exits 2 naming what is wrong and where", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({ route: { client: "anthropic-messages", backend: "gemini" }, mode: "fast" }),
    );
    const r = await cli(bad);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain(`${bad} is not a valid exchange`);
    expect(r.err).toMatch(/mode: .*"stream"\|"non-stream"/);
    const notJson = join(dir, "not.json");
    writeFileSync(notJson, "{");
    expect((await cli(notJson)).err).toContain("is not JSON");
    expect((await cli(join(dir, "missing.json"))).code).toBe(EXIT.usage);
  });

  it("exits 2 when the client request body cannot be read", async () => {
    const file = join(dir, "text-body.json");
    const exchange = {
      route: { client: "openai-chat", backend: "openai-chat" },
      mode: "non-stream",
      clientRequest: { path: "/v1/chat/completions", body: "not json" },
      forwarded: [],
    };
    writeFileSync(file, JSON.stringify(exchange));
    const r = await cli(file);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain("clientRequest.body");
  });

  it("judges several files in one start-up, each table under its name", async () => {
    const faithful = join(FIXTURES, "anthropic-to-chat-non-stream-faithful.json");
    const r = await cli(lossy, faithful);
    expect(r.code).toBe(EXIT.ok);
    expect(r.out.startsWith(`== ${lossy}\nRequest (client → backend)\n`)).toBe(true);
    expect(r.out).toContain(`\n== ${faithful}\nRequest (client → backend)\n`);
    // Each file's table is the one a check of that file alone prints.
    expect(r.out).toContain((await cli(faithful)).out);
  });

  it("with several files, judges the usable ones, names the others and exits 2", async () => {
    const bad = join(dir, "several-bad.json");
    writeFileSync(bad, "{");
    const missing = join(dir, "several-missing.json");
    const r = await cli(bad, lossy, missing, "--json");
    expect(r.code).toBe(EXIT.usage);
    const results = JSON.parse(r.out) as { file: string; verdicts?: unknown[]; error?: string }[];
    expect(results.map((x) => x.file)).toEqual([bad, lossy, missing]);
    expect(results[0]?.error).toContain("is not JSON");
    expect(results[1]?.verdicts?.length).toBeGreaterThan(0);
    expect(results[2]?.error).toContain("ENOENT");
    expect(r.err).toContain(`gatecheck: ${results[0]?.error}`);
    expect(r.err).toContain("2 of 3 files could not be judged");
  });

  it("judges a folder: its *.json files in name order, as if each were named", async () => {
    const folder = join(dir, "traffic");
    mkdirSync(folder);
    const faithful = join(FIXTURES, "anthropic-to-chat-non-stream-faithful.json");
    copyFileSync(lossy, join(folder, "b-lossy.json"));
    copyFileSync(faithful, join(folder, "a-faithful.json"));
    writeFileSync(join(folder, "notes.txt"), "not an exchange");
    const r = await cli(folder);
    expect(r.code).toBe(EXIT.ok);
    const named = await cli(join(folder, "a-faithful.json"), join(folder, "b-lossy.json"));
    expect(r.out).toBe(named.out);
    const json = JSON.parse((await cli(folder, "--json")).out) as { file: string }[];
    expect(json.map((x) => x.file)).toEqual([
      join(folder, "a-faithful.json"),
      join(folder, "b-lossy.json"),
    ]);
    const empty = join(dir, "empty-folder");
    mkdirSync(empty);
    expect(await cli(empty)).toMatchObject({ code: EXIT.usage });
    expect((await cli(empty)).err).toContain(
      "a folder with no *.json exchange or *.jsonl record files",
    );
  });

  it("judges a one-sided trace (client request and response only) by what its reply shows, exit 0; --fail-on silent fails it", async () => {
    const oneSided = join(FIXTURES, "anthropic-one-sided-stream-tool-turn.json");
    const r = await cli(oneSided, "--json");
    expect(r.code).toBe(EXIT.ok);
    const verdicts = JSON.parse(r.out) as { subject: string; verdict: string }[];
    // Named by subject, so an invariant added later (block-lifecycle) shows as itself.
    expect(
      verdicts
        .filter((v) => v.subject.startsWith("invariant."))
        .map((v) => `${v.subject} ${v.verdict}`),
    ).toEqual([
      "invariant.tool-stop mangled",
      "invariant.tool-arguments mangled",
      "invariant.tool-call-id preserved",
      "invariant.empty-content preserved",
      "invariant.one-lifecycle invented",
      "invariant.block-lifecycle preserved",
    ]);
    expect((await cli(oneSided, "--fail-on", "silent")).code).toBe(EXIT.failed);
  });

  it("refuses JSON nested 20,000 levels deep with a clear error and exit 2, not a crash", async () => {
    const deep = join(dir, "deep.json");
    const nested = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const body = `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}],"metadata":{"x":${nested}}}`;
    writeFileSync(
      deep,
      JSON.stringify({
        route: { client: "anthropic-messages", backend: "openai-chat" },
        mode: "non-stream",
        clientRequest: { path: "/v1/messages", body },
        forwarded: [{ path: "/v1/chat/completions", body }],
      }),
    );
    const r = await cli(deep);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain("clientRequest.body: JSON nested 20002 levels deep");
  });

  it("--fail-on exits 1 when a listed verdict is found, 0 when none is", async () => {
    const faithful = join(FIXTURES, "anthropic-to-chat-non-stream-faithful.json");
    const clean = await cli(faithful, "--json");
    const lossyVerdicts = JSON.parse((await cli(lossy, "--json")).out) as { verdict: string }[];
    expect(lossyVerdicts.some((v) => v.verdict === "dropped")).toBe(true);
    const failed = await cli(lossy, "--fail-on", "dropped,invented");
    expect(failed.code).toBe(EXIT.failed);
    expect(failed.err).toMatch(/--fail-on: \d+ verdict\(s\) found: (dropped|invented)/);
    expect(failed.out).toBe((await cli(lossy)).out); // the table is printed all the same
    expect((await cli(lossy, "--fail-on", "silent")).code).toBe(EXIT.failed);
    const kinds = new Set((JSON.parse(clean.out) as { verdict: string }[]).map((v) => v.verdict));
    const absent = ["dropped", "mangled", "invented", "leaked", "rejected", "error"].filter(
      (v) => !kinds.has(v),
    );
    expect(absent.length).toBeGreaterThan(0);
    expect((await cli(faithful, "--fail-on", absent.join(","))).code).toBe(EXIT.ok);
    expect(await cli(lossy, "--fail-on", "droped")).toMatchObject({ code: EXIT.usage });
    expect((await cli(lossy, "--fail-on", "droped")).err).toContain('unknown verdict "droped"');
  });

  it("judges a mock record file as the mock wrote it: one exchange per nonce, by its backend side", async () => {
    const file = join(dir, "records.jsonl");
    const mock = await startMock({ recordFile: file });
    const [chat, lost] = [newNonce(), newNonce()];
    const body = (nonce: string) => ({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: `${nonce} hi` }],
    });
    const post = (path: string, nonce: string) =>
      fetch(`${mock.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body(nonce)),
      }).then((r) => r.text());
    await fetch(`${mock.url}/v1/models`).then((r) => r.text());
    await post("/v1/chat/completions", chat);
    await post("/v1/chat/completions", chat);
    await post("/v1/v1/chat/completions", lost);
    await mock.close();

    const table = await cli(file);
    expect(table.code).toBe(EXIT.ok);
    expect(table.out).toContain(
      `== ${file} (nonce ${chat}, records 2, 3)\nRequest (client → backend)\n`,
    );
    expect(table.out).toMatch(
      /\npath +preserved +client's not recorded → "\/v1\/chat\/completions"/,
    );
    expect(table.out).toContain(
      `== ${file} (nonce ${lost}, record 4)\nleft out: /v1/v1/chat/completions`,
    );
    expect(table.out).toContain(`${file}: 1 record in no exchange`);

    const json = await cli(file, "--json");
    expect(JSON.parse(json.out)).toEqual([
      {
        file,
        nonce: chat,
        seqs: [2, 3],
        verdicts: [expect.objectContaining({ subject: "path", verdict: "preserved" })],
      },
      { file, nonce: lost, seqs: [4], skipped: expect.stringContaining("404") },
    ]);

    // Told by its first line when the name does not say JSONL; with exchange files alike.
    const named = join(dir, "records.log");
    copyFileSync(file, named);
    const both = await cli(named, lossy, "--json");
    expect(both.code).toBe(EXIT.ok);
    expect((JSON.parse(both.out) as { file: string }[]).map((x) => x.file)).toEqual([
      named,
      named,
      lossy,
    ]);

    // A folder holds record files beside exchange files; --fail-on reads their verdicts too.
    const folder = join(dir, "recorded");
    mkdirSync(folder);
    copyFileSync(file, join(folder, "b-records.jsonl"));
    copyFileSync(lossy, join(folder, "a-lossy.json"));
    const inFolder = await cli(folder, "--json");
    expect(inFolder.code).toBe(EXIT.ok);
    expect((JSON.parse(inFolder.out) as { file: string }[]).map((x) => x.file)).toEqual([
      join(folder, "a-lossy.json"),
      join(folder, "b-records.jsonl"),
      join(folder, "b-records.jsonl"),
    ]);
    expect((await cli(file, "--fail-on", "preserved")).code).toBe(EXIT.failed);
    expect((await cli(file, "--fail-on", "silent")).code).toBe(EXIT.ok);

    const torn = join(dir, "torn.jsonl");
    writeFileSync(torn, `${readFileSync(file, "utf8")}{"seq":5,`);
    // A torn last line (a killed mock's) is named; the records before it are still judged.
    const bad = await cli(torn);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain(`gatecheck: ${torn} line 5 is not JSON`);
    expect(bad.err).toContain("1 of 1 files could not be judged (wholly or in part)");
    expect(bad.out).toContain(`== ${torn} (nonce ${chat}, records 2, 3)\n`);
  });
});
