/**
 * Runs one independent client through every case in both modes: each test stages the
 * case's reply for a fresh nonce, lets the client call the mock as it would call the
 * provider, and compares what the client handed back with what was staged.
 */
import { describe, expect, it } from "vitest";
import type { MockHandle } from "../index.ts";
import {
  CASES,
  type CaseName,
  type ClientMode,
  MODES,
  type Seen,
  type SeenError,
  stageCase,
  useMock,
} from "./cases.ts";

export interface ClientAdapter {
  /** The client's spelling of each staged stop reason. */
  finish: Record<"stop" | "length" | "tool_calls", string>;
  /** Cases the dialect has no way to say (reasoning on OpenAI Chat): not generated at all. */
  undefinedInDialect?: readonly CaseName[];
  /** Modes the client speaks. */
  modes?: readonly ClientMode[];
  /** One call as the client's caller makes it, its result in one vocabulary. */
  call(mock: MockHandle, nonce: string, mode: ClientMode): Promise<Seen>;
  /** The thrown error, in one vocabulary. */
  error(thrown: unknown): SeenError;
}

export function clientSuite(title: string, adapter: ClientAdapter): void {
  describe(title, () => {
    const mock = useMock();
    const cases = CASES.filter((c) => !adapter.undefinedInDialect?.includes(c.name));
    for (const mode of adapter.modes ?? MODES) {
      for (const c of cases) {
        it(`${c.name}, ${mode}`, async () => {
          const m = mock();
          const nonce = stageCase(m, c);
          if (c.expectError) {
            let thrown: unknown;
            try {
              await adapter.call(m, nonce, mode);
            } catch (error) {
              thrown = error;
            }
            expect(thrown, "the client must throw for an error status").toBeDefined();
            const seen = adapter.error(thrown);
            expect(seen.status).toBe(c.expectError.status);
            expect(seen.message).toContain(c.expectError.message);
            if (c.expectError.retryAfter !== undefined) {
              expect(seen.retryAfter).toBe(c.expectError.retryAfter);
            }
            return;
          }
          const want = c.expect;
          if (!want) throw new Error(`case ${c.name} has no expectation`);
          const seen = await adapter.call(m, nonce, mode);
          expect(seen.text).toBe(want.text);
          expect(seen.toolCalls).toEqual(want.toolCalls);
          expect(seen.usage).toEqual(want.usage);
          expect(seen.finish).toBe(adapter.finish[want.stop]);
          if (want.reasoning !== undefined) expect(seen.reasoning).toBe(want.reasoning);
          // The staged reply answered (not a default): the record says so.
          const [record] = m.records({ nonce });
          expect(record?.reply.staged).toBe(true);
        });
      }
    }
  });
}
