/**
 * What the mock listeners recorded for one attempt's nonce. A forward can land just after the
 * gateway answered the client, so an empty read waits `settleMs` and reads once more.
 */
import type { MockHandle, MockRecord } from "../mock-upstream/index.ts";

/** The listeners' records for the nonce, in arrival order (the earlier listener on a tie). */
export async function collectRecords(
  listeners: readonly MockHandle[],
  nonce: string,
  settleMs: number,
): Promise<MockRecord[]> {
  let records = recordsOf(listeners, nonce);
  if (records.length === 0 && settleMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    records = recordsOf(listeners, nonce);
  }
  return records;
}

function recordsOf(listeners: readonly MockHandle[], nonce: string): MockRecord[] {
  const [only] = listeners;
  if (listeners.length === 1 && only) return only.records({ nonce });
  return listeners
    .flatMap((mock, key) => mock.records({ nonce }).map((r, i) => ({ r, key, i })))
    .sort(
      (x, y) =>
        Date.parse(x.r.receivedAt) - Date.parse(y.r.receivedAt) || x.key - y.key || x.i - y.i,
    )
    .map((x) => x.r);
}
