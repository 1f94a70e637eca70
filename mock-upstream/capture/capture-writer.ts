/**
 * Appends exchanges to a capture file, one JSON line per exchange, each in one synchronous
 * append: lines never interleave or tear, and a line is on disk before the exchange's end is
 * reported, so a shutdown right after a stream loses nothing. One write per exchange (not per
 * frame) keeps the cost off the relay's hot path.
 */
import { appendFileSync } from "node:fs";
import { CaptureError } from "./capture-error.ts";
import type { Exchange } from "./exchange.ts";

export class CaptureWriter {
  private failure: CaptureError | undefined;

  constructor(readonly file: string) {}

  append(exchange: Exchange): void {
    try {
      appendFileSync(this.file, `${JSON.stringify(exchange)}\n`, "utf8");
    } catch (error) {
      this.failure ??= new CaptureError(
        "write-failed",
        `${this.file}: cannot append exchange ${exchange.id}: ${(error as Error).message}`,
        this.file,
      );
    }
  }

  /** Rejects with the first write error, if any write failed. */
  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
  }
}
