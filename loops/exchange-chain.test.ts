/**
 * The exchange-chain format of `gatecheck check`: docs/loops.md's example chain run as the
 * docs say (`check chain.json --fail-on mangled`), the cross-turn verdicts a faithful gateway
 * and a lossy one give, and bad chains refused with exit 2 naming what is wrong.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { registerCheck } from "../scripts/commands/check.ts";
import { runCli } from "../scripts/commands/testing/run-cli.ts";
import { EXIT } from "../scripts/exit-codes.ts";
import { parseChain } from "./exchange-chain.ts";
import { judgeChain } from "./judge-chain.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-chain-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The ```json block of docs/loops.md's "A trace of your own" section. */
function docsChain(): string {
  const docs = readFileSync(join(import.meta.dirname, "..", "docs", "loops.md"), "utf8");
  const section = docs.slice(docs.indexOf("## A trace of your own"));
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  if (!block?.[1]) throw new Error("docs/loops.md has no example chain");
  return block[1];
}

const check = (...args: string[]) => runCli([registerCheck], ["check", ...args]);

function write(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

type Json = Record<string, unknown>;
const example = () => JSON.parse(docsChain()) as { chain: Json[] };

describe("the docs' example chain", () => {
  it("runs as documented: each turn's table, the cross-turn verdicts, exit 1 on --fail-on mangled", async () => {
    const file = write("chain.json", docsChain());
    const r = await check(file, "--fail-on", "mangled");
    expect(r.code).toBe(EXIT.failed);
    expect(r.out).toContain("-- turn 1\nRequest (client → backend)");
    expect(r.out).toContain("-- turn 2\n");
    expect(r.out).toMatch(
      /\n2 +tool-results +mangled +the backend issued \["toolu_01Ab"\] at turn 1; the results that reached it at turn 2 answer \["call_1"\].* \[id-not-restored\]\n/,
    );
    expect(r.out).toMatch(
      /\n2 +signature +dropped +the client never got the thinking block's signature from the gateway at turn 1.* \(its provider refuses such a tool loop: https:\/\/docs\.anthropic\.com\/.*\n/,
    );
    expect(r.err).toContain("--fail-on: ");
    // Without --fail-on it judged, whatever it found: exit 0.
    expect((await check(file)).code).toBe(EXIT.ok);
  });

  it("prints {turns, acrossTurns} with --json", async () => {
    const r = await check(write("chain.json", docsChain()), "--json");
    const parsed = JSON.parse(r.out) as { turns: unknown[][]; acrossTurns: Json[] };
    expect(parsed.turns).toHaveLength(2);
    expect(parsed.turns[0]?.length).toBeGreaterThan(0);
    expect(parsed.acrossTurns.map((v) => [v.turn, v.subject, v.verdict])).toEqual([
      [2, "tool-results", "mangled"],
      [2, "signature", "dropped"],
    ]);
  });

  it("a gateway that restores the id and carries the signature back gives preserved", () => {
    const chain = example();
    const second = chain.chain[1] as { forwarded: { body: { messages: Json[] } }[] };
    const messages = second.forwarded[0]?.body.messages ?? [];
    messages[1] = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I will call the tool.", signature: "EqQBsig==" },
        { type: "tool_use", id: "toolu_01Ab", name: "lookup_weather", input: { city: "Paris" } },
      ],
    };
    messages[2] = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_01Ab", content: "Paris: sunny" }],
    };
    expect(judgeChain(parseChain(chain)).map((v) => [v.subject, v.verdict])).toEqual([
      ["tool-results", "preserved"],
      ["signature", "preserved"],
    ]);
  });

  it("a signature the client got and did not send back is not the gateway's to carry", () => {
    const chain = example();
    const first = chain.chain[0] as { clientResponse: { body: string } };
    first.clientResponse.body = first.clientResponse.body.replace(
      '"content":null',
      '"content":null,"thinking_signature":"EqQBsig=="',
    );
    const signature = judgeChain(parseChain(chain)).find((v) => v.subject === "signature");
    expect(signature).toMatchObject({ verdict: "not-run" });
    expect(signature?.reason).toContain("did not send it back");
  });
});

describe("a chain among other files", () => {
  it("a folder: the chain's turns and cross-turn table under its name, {file, turns, acrossTurns} as JSON", async () => {
    const folder = join(dir, "traces");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "a-chain.json"), docsChain());
    writeFileSync(join(folder, "b-turn.json"), JSON.stringify(example().chain[1]));
    const r = await check(folder, "--fail-on", "mangled");
    expect(r.code).toBe(EXIT.failed);
    expect(r.out).toContain(`== ${join(folder, "a-chain.json")}\n-- turn 1\n`);
    expect(r.out).toContain("Across turns");
    expect(r.out).toContain(`== ${join(folder, "b-turn.json")}\nRequest (client → backend)`);
    const json = JSON.parse((await check(folder, "--json")).out) as Json[];
    expect(json.map((o) => Object.keys(o).sort())).toEqual([
      ["acrossTurns", "file", "turns"],
      ["file", "verdicts"],
    ]);
  });
});

describe("a lost signature and the provider's rule", () => {
  it("Anthropic refuses the echo only while thinking is on: without it the reason says so", () => {
    const chain = example();
    const second = chain.chain[1] as { forwarded: { body: Json }[] };
    const body = second.forwarded[0]?.body as Json;
    delete body.thinking;
    const signature = judgeChain(parseChain(chain)).find((v) => v.subject === "signature");
    expect(signature).toMatchObject({ verdict: "dropped" });
    expect(signature?.reason).toContain(
      "(the request did not enable thinking, and Anthropic asks for the blocks back only while it is on)",
    );
    expect(signature?.reason).not.toContain("refuses");
  });
});

describe("a chain that cannot be used", () => {
  it("exits 2 naming the path inside the file", async () => {
    const chain = example();
    (chain.chain[1] as { route: Json }).route = { client: "openai-chats", backend: "gemini" };
    const r = await check(write("bad.json", chain));
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toContain(
      "is not a valid exchange chain:\n  chain[1].route.client: Invalid option",
    );
  });

  it("exits 2 for one turn, and for turns of two routes", async () => {
    const one = await check(write("one.json", { chain: [example().chain[0]] }));
    expect(one.code).toBe(EXIT.usage);
    expect(one.err).toContain("chain: a chain has two turns or more");
    const chain = example();
    (chain.chain[1] as { route: Json }).route = { client: "openai-chat", backend: "gemini" };
    const two = await check(write("two.json", chain));
    expect(two.code).toBe(EXIT.usage);
    expect(two.err).toContain(
      "chain[1].route: openai-chat -> gemini, but turn 1 is openai-chat -> anthropic-messages",
    );
  });

  it("a turn without upstreamReply leaves the link not-run, with why", () => {
    const chain = example();
    delete (chain.chain[0] as Json).upstreamReply;
    expect(judgeChain(parseChain(chain))).toEqual([
      {
        turn: 2,
        subject: "tool-results",
        verdict: "not-run",
        reason: "turn 1 cannot be linked: it has no upstreamReply (what the backend answered)",
      },
    ]);
  });
});
