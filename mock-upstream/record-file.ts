/**
 * The record file: JSONL lines appended in the order they are queued. The lines queued in
 * one turn of the event loop go out in one `write` system call at the end of the turn, made
 * on the main thread. An append stream did the same work on libuv's thread pool, and the
 * hand-off (queue the write, wake a pool thread, run the completion callback, wake the
 * stream for the next batch) cost the mock more than the write itself: about a fifth of its
 * time per request under load. A local file append of a turn's lines takes a few
 * microseconds. Lines are never torn or interleaved: one writer, whole lines per call,
 * and a short write is finished before anything else is written.
 */
import { closeSync, openSync, writeSync, writevSync } from "node:fs";

type LinePart = string | Buffer;

/** Queued text past this many bytes (or UTF-16 units) is written at once, mid-turn. */
const FLUSH_AT = 1024 * 1024;

export class RecordFile {
  #fd: number | undefined;
  #failure: Error | undefined;
  #pending: LinePart[] = [];
  #pendingSize = 0;
  #hasBuffers = false;
  #flushQueued = false;

  constructor(readonly path: string) {
    try {
      this.#fd = openSync(path, "a");
    } catch (error) {
      // Kept and surfaced by health() and close(), as a failed write is: the mock still
      // answers and keeps its records in memory.
      this.#failure = error as Error;
    }
  }

  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Queue one line's parts; they reach the file at the end of this turn at the latest. */
  append(parts: string | readonly LinePart[]): void {
    if (this.#fd === undefined) return;
    if (typeof parts === "string") {
      this.#pending.push(parts);
      this.#pendingSize += parts.length;
    } else {
      for (const part of parts) {
        this.#pending.push(part);
        this.#pendingSize += part.length;
        if (typeof part !== "string") this.#hasBuffers = true;
      }
    }
    if (this.#pendingSize >= FLUSH_AT) this.flush();
    else if (!this.#flushQueued) {
      this.#flushQueued = true;
      setImmediate(() => this.flush());
    }
  }

  /** Write every queued line now, in order. */
  flush(): void {
    this.#flushQueued = false;
    const fd = this.#fd;
    const parts = this.#pending;
    if (fd === undefined || parts.length === 0) return;
    this.#pending = [];
    this.#pendingSize = 0;
    const buffers = this.#hasBuffers;
    this.#hasBuffers = false;
    try {
      if (buffers) writeAllv(fd, parts.map(toBuffer));
      else writeAll(fd, Buffer.from(parts.join("")));
    } catch (error) {
      // Disk full, file system gone: keep the error, stop writing (a later line after a
      // lost one would hide the gap), and let the mock go on answering.
      this.#failure = error as Error;
      this.#closeFd();
    }
  }

  /** Flush and close. Safe to call more than once. */
  close(): void {
    this.flush();
    this.#closeFd();
  }

  #closeFd(): void {
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch (error) {
      this.#failure ??= error as Error;
    }
  }
}

function toBuffer(part: LinePart): Buffer {
  return typeof part === "string" ? Buffer.from(part) : part;
}

/** `write` may write less than asked (a signal, a nearly full disk): finish it. */
function writeAll(fd: number, buffer: Buffer): void {
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset);
}

function writeAllv(fd: number, buffers: Buffer[]): void {
  const total = buffers.reduce((n, b) => n + b.length, 0);
  const written = writevSync(fd, buffers);
  if (written >= total) return;
  // A short vectored write: the rest, from where it stopped, one buffer at a time.
  let skip = written;
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
      continue;
    }
    writeAll(fd, skip > 0 ? buffer.subarray(skip) : buffer);
    skip = 0;
  }
}
