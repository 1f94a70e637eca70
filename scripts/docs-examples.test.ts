/**
 * Every `npx gatecheck ...` example in README.md, docs/results.md and docs/lens.md, run as a
 * user would run it (the bin, `sh -c`, in one folder, in the order the docs give them) against
 * a database made for it by a small real sweep: `direct` and the sweep tests' lossy gateway,
 * two runs; `check`'s files are lens fixtures (`EXCHANGE.json`, `traces/`), a record file
 * the mock wrote (`run.jsonl`, also in `traces/`) and docs/loops.md's example exchange chain
 * (`chain.json`). The SQL of docs/results.md's questions is
 * run by results/docs-queries.test.ts.
 *
 * What the test changes in an example, all listed in EDITS: optional `[...]` parts are left
 * out, `...` placeholders get a value, the names of one cell the docs point at (a Portkey
 * cell) become a cell of this database, the fixed port 9990 becomes 0 (tests pick free
 * ports), and each sweep is narrowed to this database's columns and a few probes. Servers
 * (`mock`) are started, sent one request, and stopped with SIGTERM, which must end them with
 * exit 0. Every example must exit 0, or 1 where the docs say a failed check exits 1 (`diff`,
 * `report --junit`, `check --fail-on`); never 2, never a stack trace.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBundle } from "./cli-bundle.mjs";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "scripts", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-docs-examples-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LOSSY = join(dir, "lossy.json");
const NARROW = `--gateways direct,${LOSSY} --probes oc-stop-string,oc-temperature,oc-seed --repeats 2`;

/** [pattern, replacement, why]: the only changes made to a documented command. */
const EDITS: [RegExp, string, string][] = [
  [/\s\[[^\]]*\]/g, "", "optional parts"],
  [/"SELECT \.\.\."/g, `"SELECT id, status FROM runs"`, "a placeholder query"],
  [/OUT\.db IN\.db\.\.\./g, "merged.db gatecheck.db nightly.db", "placeholder databases"],
  [/--port 9990/g, "--port 0", "tests listen on a free port"],
  [/https:\/\/api\.example\.test/g, "$UPSTREAM", "a live upstream: a local mock here"],
  [/portkey@1\.15\.2\+locked/g, "lossy@1.0.0", "the docs' example cell"],
  [/openai-chat->anthropic-messages/g, "openai-chat->openai-chat", "the docs' example cell"],
  [/oc-tools-strict/g, "oc-stop-string", "the docs' example cell"],
  [/my-gateway\.json/g, "lossy.json", "a user gateway file: the lossy gateway's"],
  [/--attempt-id \d+/g, "--attempt-id 1", "the docs' example attempt: the first of this database"],
  [/^(npx gatecheck sweep\b.*)$/, `$1 ${NARROW}`, "a sweep of this database's columns"],
];

/** Commands whose exit 1 the docs give as a failed check, not an error. */
const MAY_EXIT_1 = [
  /^npx gatecheck diff\b/,
  /^npx gatecheck report\b.*--junit/,
  /^npx gatecheck check\b.*--fail-on/,
];

const LENS_FIXTURES = join(ROOT, "probes", "lens", "fixtures");

/** The shell code blocks of a Markdown file: fenced with no language, `sh` or `bash`. */
function shellBlocks(markdown: string): string[][] {
  const blocks: string[][] = [];
  let open: string[] | undefined;
  let shellish = false;
  for (const line of markdown.split("\n")) {
    const fence = /^```(\S*)/.exec(line);
    if (fence && !open) {
      open = [];
      shellish = ["", "sh", "bash"].includes(fence[1] ?? "");
    } else if (fence && open) {
      if (shellish) blocks.push(open);
      open = undefined;
    } else {
      open?.push(line);
    }
  }
  return blocks;
}

/** The `npx gatecheck` commands of a Markdown file's shell blocks, in order. */
function documentedCommands(markdown: string): string[] {
  const commands: string[] = [];
  for (const block of shellBlocks(markdown)) {
    let current = "";
    let quote: string | undefined;
    for (const line of block) {
      let text = "";
      for (const ch of line) {
        if (quote) {
          if (ch === quote && !text.endsWith("\\")) quote = undefined;
        } else if (ch === '"' || ch === "'") {
          quote = ch;
        } else if (ch === "#") {
          break; // a comment to the end of the line
        }
        text += ch;
      }
      current += current ? `\n${text}` : text;
      if (quote || current.trimEnd().endsWith("\\")) continue;
      for (const part of current.replace(/\\\n\s*/g, "").split("&&")) {
        const command = part.trim();
        if (command.startsWith("npx gatecheck ")) commands.push(command);
      }
      current = "";
    }
  }
  return commands;
}

function edited(command: string): string {
  return EDITS.reduce(
    (text, [pattern, replacement]) => text.replace(pattern, replacement),
    command,
  );
}

function shell(command: string, env: Record<string, string> = {}) {
  const line = command.replace(/^npx gatecheck /, `"${process.execPath}" "${BIN}" `);
  return spawnSync("sh", ["-c", line], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
}

/** A server example: started, sent one request, stopped with SIGTERM; its exit code. */
async function serverExample(command: string, env: Record<string, string>) {
  const line = command.replace(/^npx gatecheck /, `exec "${process.execPath}" "${BIN}" `);
  const child = spawn("sh", ["-c", line], { cwd: dir, env: { ...process.env, ...env } });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", () => reject(new Error(`${command}: exited before listening: ${err}`)));
  });
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
  });
  await res.arrayBuffer();
  child.kill("SIGTERM");
  const code = await new Promise((resolve) => child.once("exit", (c) => resolve(c)));
  return { code, status: res.status, err };
}

/** The example exchange chain: the ```json block of docs/loops.md's "A trace of your own". */
function docsChain(): string {
  const docs = readFileSync(join(ROOT, "docs", "loops.md"), "utf8");
  const block = /```json\n([\s\S]*?)\n```/.exec(docs.slice(docs.indexOf("## A trace of your own")));
  if (!block?.[1]) throw new Error("docs/loops.md has no example chain");
  return block[1];
}

beforeAll(async () => {
  await cliBundle();
  copyFileSync(
    join(ROOT, "sweep", "fixtures", "lossy-gateway.mjs"),
    join(dir, "lossy-gateway.mjs"),
  );
  const fixture = JSON.parse(
    readFileSync(join(ROOT, "sweep", "fixtures", "lossy-gateway.json"), "utf8"),
  ) as { command: string[] };
  fixture.command[1] = join(dir, "lossy-gateway.mjs");
  writeFileSync(LOSSY, JSON.stringify(fixture));
  writeFileSync(join(dir, "accepted-losses.json"), "[]\n");
  // Two runs in the default database, one in nightly.db: the databases the examples name.
  for (const db of ["results/gatecheck.db", "results/gatecheck.db", "nightly.db"]) {
    const run = shell(`npx gatecheck sweep ${NARROW} --db ${db}`);
    expect(run.status, run.stderr).toBe(0);
  }
  copyFileSync(join(dir, "results", "gatecheck.db"), join(dir, "gatecheck.db"));
  // docs/lens.md's files: an exchange, a folder of traces, and what `mock --record` wrote.
  const lensFixture = (name: string) =>
    join(LENS_FIXTURES, `anthropic-to-chat-non-stream-${name}.json`);
  copyFileSync(lensFixture("lossy"), join(dir, "EXCHANGE.json"));
  mkdirSync(join(dir, "traces"));
  copyFileSync(lensFixture("faithful"), join(dir, "traces", "a-faithful.json"));
  copyFileSync(lensFixture("lossy"), join(dir, "traces", "b-lossy.json"));
  const recorded = await serverExample("npx gatecheck mock --port 0 --record run.jsonl", {});
  expect(recorded.code).toBe(0);
  copyFileSync(join(dir, "run.jsonl"), join(dir, "traces", "c-run.jsonl"));
  writeFileSync(join(dir, "chain.json"), docsChain());
}, 180_000);

describe("the documented examples", { timeout: 300_000 }, () => {
  const files = ["README.md", join("docs", "results.md"), join("docs", "lens.md")];
  const all = files.flatMap((file) =>
    documentedCommands(readFileSync(join(ROOT, file), "utf8")).map((c) => [file, c] as const),
  );

  it("finds the examples: every command line of both files", () => {
    const text = files.map((f) => readFileSync(join(ROOT, f), "utf8")).join("\n");
    const lines = text.split("\n").filter((l) => /(^|&& )npx gatecheck /.test(l)).length;
    expect(all.length).toBe(lines);
    expect(all.length).toBeGreaterThan(10);
  });

  it("each runs: exit 0 (1 where the docs call it a failed check), never 2, never a stack trace", async () => {
    // A local mock is the "live upstream" of the record-through example.
    const upstream = spawn(process.execPath, [BIN, "mock", "--port", "0"], { cwd: dir });
    const upstreamUrl = await new Promise<string>((resolve) => {
      upstream.stdout.on("data", (d) => {
        const match = /listening on (\S+)/.exec(String(d));
        if (match?.[1]) resolve(match[1]);
      });
    });
    const env = { UPSTREAM: upstreamUrl };
    try {
      for (const [file, documented] of all) {
        const command = edited(documented);
        if (/^npx gatecheck (mock|serve)\b/.test(command)) {
          const run = await serverExample(command, env);
          expect({ file, command, code: run.code, status: run.status }).toEqual({
            file,
            command,
            code: 0,
            status: 200,
          });
          continue;
        }
        const run = shell(command, env);
        const allowed = MAY_EXIT_1.some((re) => re.test(command)) ? [0, 1] : [0];
        expect(allowed, `${file}: ${command}\n${run.stderr}`).toContain(run.status);
        expect(run.stderr, command).not.toMatch(/\n\s+at /);
      }
    } finally {
      upstream.kill("SIGTERM");
    }
  });
});
