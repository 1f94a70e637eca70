/**
 * Staged replies waiting for their requests. A request is offered to the most specific
 * specs first (nonce, then model, then path, then match-all), in staging order within a
 * rank, so a probe's nonce-bound reply is never taken by a broader spec staged earlier.
 * Each spec serves its steps in order (one reply is a one-step sequence), `times` passes
 * over them, or forever with "always"; a spent spec is removed.
 */
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

export class StageStore {
  #entries: StagedEntry[] = [];
  #nextId = 0;

  add(spec: StagedReplySpec): string {
    this.#nextId += 1;
    const id = `stage-${this.#nextId}`;
    this.#entries.push({ id, spec, served: 0 });
    return id;
  }

  /** The reply for this request, consuming one use of the spec that gives it. */
  take(request: StageRequest): TakenReply | undefined {
    let best: StagedEntry | undefined;
    for (const entry of this.#entries) {
      if (!matches(entry.spec, request)) continue;
      if (!best || rank(entry.spec) > rank(best.spec)) best = entry;
    }
    if (!best) return undefined;
    const list = steps(best.spec);
    const step = best.served % list.length;
    const pass = Math.floor(best.served / list.length);
    const reply = list[step];
    if (!reply) return undefined;
    best.served += 1;
    const times = best.spec.times;
    if (times !== "always" && best.served >= times * list.length) {
      this.#entries = this.#entries.filter((e) => e !== best);
    }
    return { id: best.id, reply, step, pass };
  }

  list(): readonly StagedEntry[] {
    return this.#entries;
  }

  clear(): void {
    this.#entries = [];
  }
}
