/**
 * Each content block's lifecycle in a stream whose blocks have events of their own (Anthropic:
 * "each content block will have a content_block_start event, one or more content_block_delta
 * events, and a content_block_stop event", with an `index` that is the block's place in the
 * final content). The reader tells it every block event; it says whether the event may be
 * assembled and keeps each event out of order as a fault.
 *
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
import type { BlockFault } from "./canonical.ts";

export class BlockLifecycle {
  private readonly state = new Map<string, "open" | "closed">();
  readonly faults: BlockFault[] = [];

  /** A start: a block already open, or one already stopped, is a fault; the block opens. */
  start(block: string, event: number, type: string): void {
    const now = this.state.get(block);
    if (now === "open") this.faults.push({ fault: "started-twice", block, event, type });
    if (now === "closed") this.faults.push({ fault: "after-stop", block, event, type });
    this.state.set(block, "open");
  }

  /**
   * A delta: whether it belongs to the block's content. One after the block's stop does not (a
   * block is what it was at its stop); one for a block never started is a fault but still read.
   */
  delta(block: string, event: number, type: string): boolean {
    const now = this.state.get(block);
    if (now === "closed") {
      this.faults.push({ fault: "after-stop", block, event, type });
      return false;
    }
    if (now === undefined) this.faults.push({ fault: "no-start", block, event, type });
    return true;
  }

  stop(block: string, event: number, type: string): void {
    const now = this.state.get(block);
    if (now === undefined) this.faults.push({ fault: "no-start", block, event, type });
    if (now === "closed") this.faults.push({ fault: "after-stop", block, event, type });
    this.state.set(block, "closed");
  }

  /** What the stream showed; `complete` streams must have closed every block they opened. */
  finish(complete: boolean, terminal: string): { count: number; faults: BlockFault[] } {
    if (complete) {
      for (const [block, now] of this.state) {
        if (now === "open") this.faults.push({ fault: "no-stop", block, event: 0, type: terminal });
      }
    }
    return { count: this.state.size, faults: this.faults };
  }
}
