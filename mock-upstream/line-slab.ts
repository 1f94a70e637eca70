/**
 * Where the recorder keeps its lines: encoded as UTF-8 into slabs of 1 MiB, one line after
 * another, the bytes that also go to the record file. A kept line is then a slab and two
 * offsets, outside the JavaScript heap. Kept as strings, every line (about 3 KB for a small
 * Chat request, and the parts it was joined from) survived the young generation and was
 * copied twice by the garbage collector, which under load cost more of the mock's time than
 * rendering the line did; the file's write also had to join and encode the turn's lines
 * again. A slab is freed once every record in it is forgotten.
 */

/** Slab size: a few hundred small lines; a line of more than a quarter gets its own buffer. */
export const SLAB_BYTES = 1024 * 1024;

/** Emptied slabs held for reuse, at most. */
const SPARE_SLABS = 4;

export class LineSlab {
  #slab: Buffer = Buffer.allocUnsafe(0);
  #used = 0;
  readonly #spare: Buffer[] = [];

  /** The slab the next `write` goes into. */
  get slab(): Buffer {
    return this.#slab;
  }

  /** Bytes of the current slab already written. */
  get used(): number {
    return this.#used;
  }

  /**
   * Make room for `a` and `b`, one after the other in one slab: in the current one when they
   * fit (a UTF-16 unit is at most 3 bytes of UTF-8, so only a near-full slab counts them).
   */
  reserve(a: string, b = ""): void {
    const room = this.#slab.length - this.#used;
    if ((a.length + b.length) * 3 <= room) return;
    const need = Buffer.byteLength(a) + Buffer.byteLength(b);
    if (need <= room) return;
    this.#slab =
      need > SLAB_BYTES / 4 ? Buffer.allocUnsafe(need) : (this.#spare.pop() ?? newSlab());
    this.#used = 0;
  }

  /**
   * Take back a slab none of whose lines is needed any more (forgotten, written to the file,
   * not being read): its memory is written again instead of new memory. A fresh slab's pages
   * are first touched by the lines written into it, and in a virtual machine each page fault
   * cost about 2 µs, a microsecond a small line (docs/mock.md, Performance).
   */
  reuse(slab: Buffer): void {
    if (slab !== this.#slab && slab.length === SLAB_BYTES && this.#spare.length < SPARE_SLABS) {
      this.#spare.push(slab);
    }
  }

  /** Encode `text` after what is written (`reserve` made room); the offset after it. */
  write(text: string): number {
    this.#used += this.#slab.write(text, this.#used, "utf8");
    return this.#used;
  }
}

function newSlab(): Buffer {
  return Buffer.allocUnsafe(SLAB_BYTES);
}

/**
 * A string of its own (not a slice of a request's text, which it would keep alive): a slice
 * of a new string joined from it, which the engine makes flat (a copy) before slicing. A
 * third of the cost of a round trip through a Buffer.
 */
export function ownCopy(text: string): string {
  return ` ${text}`.slice(1);
}
