/**
 * Appends exchanges to a capture file, one JSON line per exchange. Writes are chained so
 * lines never interleave, and each line goes out in one `appendFile` call, so a crash leaves
 * at most a missing last line, never a torn one in the middle.
 */
import { appendFile } from "node:fs/promises";
import { CaptureError } from "./capture-error.ts";
import type { Exchange } from "./exchange.ts";

export class CaptureWriter {
  private tail: Promise<void> = Promise.resolve();
  private failure: CaptureError | undefined;

  constructor(readonly file: string) {}

  append(exchange: Exchange): Promise<void> {
    const line = `${JSON.stringify(exchange)}\n`;
    this.tail = this.tail.then(async () => {
      try {
        await appendFile(this.file, line, "utf8");
      } catch (error) {
        this.failure ??= new CaptureError(
          "write-failed",
          `${this.file}: cannot append exchange ${exchange.id}: ${(error as Error).message}`,
          this.file,
        );
      }
    });
    return this.tail;
  }

  /** Resolves when every line appended so far is on disk; rejects with the first write error. */
  async flush(): Promise<void> {
    await this.tail;
    if (this.failure) throw this.failure;
  }
}
