/**
 * Staged replies waiting for their requests. A request is offered to the most specific
 * specs first (nonce, then model, then path, then match-all), in staging order within a
 * rank, so a probe's nonce-bound reply is never taken by a broader spec staged earlier.
 * Each spec serves its steps in order (one reply is a one-step sequence), `times` passes
 * over them, or forever with "always"; a spent spec is removed.
 */
import { isNonce, nonceCandidates } from "../dialects/nonce.ts";
import type { ReplySpec, StagedReplySpec } from "./staged-reply-spec.ts";

export interface StageRequest {
  /** Raw body as text (unredacted; latin1 when not UTF-8): a nonce is found anywhere in it. */
  rawText: string;
  model?: string;
  /** The request path without query; `prefixless` is the same with the listener prefix removed. */
  path: string;
  prefixless: string;
}

export interface StagedEntry {
  id: string;
  spec: StagedReplySpec;
  /** Requests answered so far. */
  served: number;
}

export interface TakenReply {
  id: string;
  reply: ReplySpec;
  /** 0-based step within the sequence, and which pass over it. */
  step: number;
  pass: number;
}

function rank(spec: StagedReplySpec): number {
  const m = spec.match;
  return (m.nonce ? 4 : 0) + (m.model ? 2 : 0) + (m.path ? 1 : 0);
}

function matches(spec: StagedReplySpec, request: StageRequest): boolean {
  const m = spec.match;
  if (m.nonce !== undefined && !request.rawText.includes(m.nonce)) return false;
  if (m.model !== undefined && request.model !== m.model) return false;
  if (m.path !== undefined && m.path !== request.path && m.path !== request.prefixless) {
    return false;
  }
  return true;
}

function steps(spec: StagedReplySpec): ReplySpec[] {
  return spec.sequence ?? (spec.reply ? [spec.reply] : []);
}

interface Slot extends StagedEntry {
  /** Staging order: the tie-break within a rank. */
  order: number;
  /** The spec's size as JSON, counted against the listener's staged-bytes limit. */
  bytes: number;
}

/**
 * The default bound on the JSON of every spec waiting at once: 20 specs of 15 MiB took the
 * mock to 1.8 GB of memory, and `GET /__gatecheck/replies` answered 300 MB. A sweep's
 * specs are a few KB each, thousands of them well within it.
 */
export const DEFAULT_STAGED_BYTES_LIMIT = 64 * 1024 * 1024;

export class StageStore {
  constructor(readonly bytesLimit = DEFAULT_STAGED_BYTES_LIMIT) {}

  /** Every entry in staging order (ids are unique; a Map removes in O(1)). */
  #entries = new Map<string, Slot>();
  /**
   * Specs whose nonce is nonce-shaped, by nonce. The sweep stages one "always" spec per
   * attempt, so they pile up; a request looks up only the nonces its body carries instead
   * of testing every staged nonce against the body.
   */
  #byNonce = new Map<string, Slot[]>();
  /** Every other spec (no nonce, or a nonce of another shape): tested one by one. */
  #scanned: Slot[] = [];
  #nextId = 0;
  #bytes = 0;

  /** Bytes of JSON the waiting specs were staged as (control-api.ts bounds it). */
  get bytes(): number {
    return this.#bytes;
  }

  add(spec: StagedReplySpec, bytes = 0): string {
    this.#nextId += 1;
    const id = `stage-${this.#nextId}`;
    const slot: Slot = { id, spec, served: 0, order: this.#nextId, bytes };
    this.#bytes += bytes;
    this.#entries.set(id, slot);
    const nonce = spec.match.nonce;
    if (nonce !== undefined && isNonce(nonce)) {
      const list = this.#byNonce.get(nonce);
      if (list) list.push(slot);
      else this.#byNonce.set(nonce, [slot]);
    } else {
      this.#scanned.push(slot);
    }
    return id;
  }

  /** The reply for this request, consuming one use of the spec that gives it. */
  take(request: StageRequest): TakenReply | undefined {
    // Nothing staged is the common case of a plain recording run: no scan at all.
    if (this.#entries.size === 0) return undefined;
    const best = this.#best(request);
    if (!best) return undefined;
    const list = steps(best.spec);
    const step = best.served % list.length;
    const pass = Math.floor(best.served / list.length);
    const reply = list[step];
    if (!reply) return undefined;
    best.served += 1;
    const times = best.spec.times;
    if (times !== "always" && best.served >= times * list.length) this.#remove(best);
    return { id: best.id, reply, step, pass };
  }

  /** Highest rank wins; within a rank, the spec staged first. */
  #best(request: StageRequest): Slot | undefined {
    let best: Slot | undefined;
    const consider = (slot: Slot) => {
      if (!matches(slot.spec, request)) return;
      const r = rank(slot.spec);
      const b = best ? rank(best.spec) : -1;
      if (!best || r > b || (r === b && slot.order < best.order)) best = slot;
    };
    if (this.#byNonce.size > 0) {
      for (const nonce of nonceCandidates(request.rawText)) {
        for (const slot of this.#byNonce.get(nonce) ?? []) consider(slot);
      }
    }
    for (const slot of this.#scanned) consider(slot);
    return best;
  }

  #remove(slot: Slot): void {
    this.#entries.delete(slot.id);
    this.#bytes -= slot.bytes;
    const nonce = slot.spec.match.nonce;
    const list = nonce === undefined ? undefined : this.#byNonce.get(nonce);
    if (nonce !== undefined && list?.includes(slot)) {
      const rest = list.filter((s) => s !== slot);
      if (rest.length) this.#byNonce.set(nonce, rest);
      else this.#byNonce.delete(nonce);
    } else {
      this.#scanned = this.#scanned.filter((s) => s !== slot);
    }
  }

  list(): readonly StagedEntry[] {
    return [...this.#entries.values()];
  }

  clear(): void {
    this.#bytes = 0;
    this.#entries.clear();
    this.#byNonce.clear();
    this.#scanned = [];
  }
}
