import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EndOfTurn } from "./end-of-turn.ts";
import { Recorder } from "./recorder.ts";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("end of turn", () => {
  it("runs `before`, then every queued function in order, once, after the current turn", async () => {
    const seen: string[] = [];
    const turn = new EndOfTurn(() => seen.push("before"));
    turn.add((a: string, b: number) => seen.push(`${a}${b}`), "a", 1);
    turn.add((a: string, b: number) => seen.push(`${a}${b}`), "b", 2);
    expect(seen).toEqual([]);
    await nextTurn();
    expect(seen).toEqual(["before", "a1", "b2"]);
    await nextTurn();
    expect(seen).toEqual(["before", "a1", "b2"]);
  });

  it("can be run early; what is queued after runs at the end of a later turn", async () => {
    const seen: number[] = [];
    const turn = new EndOfTurn();
    turn.add((n: number) => seen.push(n), 1, undefined);
    turn.run();
    expect(seen).toEqual([1]);
    turn.add((n: number) => seen.push(n), 2, undefined);
    expect(seen).toEqual([1]);
    await nextTurn();
    expect(seen).toEqual([1, 2]);
  });

  // Sent inline, as each request ended, replies cost the mock about twice the system time.
  it("holds a reply to the end of the turn with no record file, as with one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gatecheck-turn-"));
    try {
      for (const recorder of [new Recorder(), new Recorder(join(dir, "r.jsonl"))]) {
        const sent: number[] = [];
        recorder.afterRecorded((n: number) => sent.push(n), 1, undefined);
        recorder.afterRecorded((n: number) => sent.push(n), 2, undefined);
        expect(sent).toEqual([]);
        await nextTurn();
        expect(sent).toEqual([1, 2]);
        await recorder.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
