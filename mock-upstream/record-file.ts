/**
 * The record file: JSONL lines appended in the order they are queued. The lines queued in
 * one turn of the event loop go out in one `write` system call at the end of the turn, made
 * on the main thread, and the replies of those records wait for it (`afterWrite`): a reply
 * leaves the mock only once its record's line has been handed to the operating system, so a
 * mock killed at any moment (SIGKILL included) has every record of every reply a client saw.
 * An append stream did the same work on libuv's thread pool, and the hand-off (queue the
 * write, wake a pool thread, run the completion callback, wake the stream for the next
 * batch) cost the mock more than the write itself. Lines are never torn or interleaved by
 * the mock: one writer, whole lines per call, and a short write is finished before anything
 * else is written. A file that a killed mock left ending inside a line is ended with a line
 * break before the first new line, so no record is ever appended onto a torn one.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync, writevSync } from "node:fs";
import { EndOfTurn } from "./end-of-turn.ts";

/** Queued bytes past this many are written at once, mid-turn. */
const FLUSH_AT = 1024 * 1024;

export class RecordFile {
  #fd: number | undefined;
  #failure: Error | undefined;
  /** Queued bytes, in order; the last range is still open (`#open*`) while lines follow it. */
  #pending: Buffer[] = [];
  #pendingSize = 0;
  #openBuffer: Buffer | undefined;
  #openStart = 0;
  #openEnd = 0;
  /** The end of the turn: the queued lines are written, then what waited for them runs. */
  readonly #turn = new EndOfTurn(() => this.#write());
  /** Whether opening found the file ending inside a line (and ended it). */
  readonly endedTornLine: boolean = false;

  constructor(readonly path: string) {
    try {
      this.#fd = openSync(path, "a");
      this.endedTornLine = endTornLine(this.#fd, path);
    } catch (error) {
      // Kept and surfaced by health() and close(), as a failed write is: the mock still
      // answers and keeps its records in memory.
      this.#failure = error as Error;
    }
  }

  /**
   * Run `fn(a, b)` at the end of this turn, once every line queued so far has been written
   * (when the file failed, nothing is written and it still runs then).
   */
  afterWrite<A, B>(fn: (a: A, b: B) => void, a: A, b: B): void {
    this.#turn.add(fn, a, b);
  }

  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Whether bytes are queued that the file has not been given yet. */
  get queued(): boolean {
    return this.#pendingSize > 0;
  }

  /**
   * Queue `buffer[start, end)` (lines, whole, as the recorder's slab holds them); it reaches
   * the file at the end of this turn at the latest. Ranges that follow one another in one
   * buffer are written as one.
   */
  appendRange(buffer: Buffer, start: number, end: number): void {
    if (this.#fd === undefined) return;
    if (this.#openBuffer === buffer && this.#openEnd === start) this.#openEnd = end;
    else {
      this.#closeRange();
      this.#openBuffer = buffer;
      this.#openStart = start;
      this.#openEnd = end;
    }
    this.#queued(end - start);
  }

  /** Queue a whole buffer (a reply body shared by many records), after what is queued. */
  appendBuffer(buffer: Buffer): void {
    if (this.#fd === undefined) return;
    this.#closeRange();
    this.#pending.push(buffer);
    this.#queued(buffer.length);
  }

  #closeRange(): void {
    const open = this.#openBuffer;
    if (open === undefined) return;
    this.#pending.push(open.subarray(this.#openStart, this.#openEnd));
    this.#openBuffer = undefined;
  }

  #queued(bytes: number): void {
    this.#pendingSize += bytes;
    if (this.#pendingSize >= FLUSH_AT) this.flush();
    else this.#turn.schedule();
  }

  /** Write every queued line now, in order, then release what waited for them. */
  flush(): void {
    this.#turn.run();
  }

  #write(): void {
    const fd = this.#fd;
    this.#closeRange();
    const parts = this.#pending;
    if (fd === undefined || parts.length === 0) return;
    this.#pending = [];
    this.#pendingSize = 0;
    try {
      if (parts.length === 1) writeAll(fd, parts[0] as Buffer);
      else writeAllv(fd, parts);
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

/**
 * A file a killed process left ending inside a line gets its line ended first, so the next
 * record starts on a line of its own (the torn line stays, readable as what it is).
 */
function endTornLine(fd: number, path: string): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  const reader = openSync(path, "r");
  try {
    readSync(reader, last, 0, 1, size - 1);
  } finally {
    closeSync(reader);
  }
  if (last[0] === 0x0a) return false;
  writeAll(fd, Buffer.from("\n"));
  return true;
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
