/**
 * Assembling canonical parts from stream deltas, shared by the five stream readers: text
 * and thinking slots keyed by the dialect's block identity, tool calls keyed by id and by
 * index (so two interleaved calls never mix), and the lifecycle every reader reports.
 */
import type {
  CanonicalReply,
  EmptiedItem,
  Part,
  ReplyError,
  StreamLifecycle,
} from "./canonical.ts";
import type { Dialect } from "./dialect.ts";
import { asRecord, tryParseJson } from "./json.ts";
import type { ReceivedEvent } from "./sse.ts";

type TextKind = "text" | "refusal" | "reasoning" | "thinking";

type Slot =
  | { kind: TextKind; text: string; signature?: string; redacted?: boolean; block?: string }
  | { kind: "unknown"; raw: unknown }
  | { kind: "tool-call"; id: string; name: string; args: string; signature?: string };

export class PartsAssembler {
  private readonly slots: Slot[] = [];
  private readonly byKey = new Map<string, Slot>();
  orphanFragments = 0;

  /**
   * Append a text-like delta to the slot `key`, opening it on first sight. `block` names the
   * slot where the wire gives it a block of its own (an Anthropic `content_block_start`): a
   * block that ends with no text was sent empty (emptied()), where a delta's `content: ""` is
   * no block at all (OpenAI opens every Chat stream with one).
   */
  text(key: string, kind: TextKind, delta: string, block?: string): void {
    let slot = this.byKey.get(key);
    if (!slot || slot.kind === "tool-call") {
      slot = block === undefined ? { kind, text: "" } : { kind, text: "", block };
      this.open(key, slot);
    }
    if (slot.kind !== "unknown") slot.text += delta;
  }

  /** Set the signature (or the redacted flag) of a thinking slot. */
  signature(key: string, signature: string, redacted = false): void {
    let slot = this.byKey.get(key);
    if (!slot) {
      slot = { kind: "thinking", text: "" };
      this.open(key, slot);
    }
    if (slot.kind === "unknown") return;
    slot.signature = (slot.signature ?? "") + signature;
    if (redacted && slot.kind === "thinking") slot.redacted = true;
  }

  /** Open a tool call under `key` (replacing what the key pointed to), or update its id/name. */
  openTool(key: string, id: string | undefined, name: string | undefined, args = ""): void {
    const existing = this.byKey.get(key);
    if (
      existing?.kind === "tool-call" &&
      (id === undefined || id === existing.id || existing.id === "")
    ) {
      if (id !== undefined) existing.id = id;
      if (name !== undefined && existing.name === "") existing.name = name;
      existing.args += args;
      return;
    }
    this.open(key, { kind: "tool-call", id: id ?? "", name: name ?? "", args });
  }

  /** A block the reader does not model, kept whole in its place. */
  unknown(key: string, raw: unknown): void {
    this.open(key, { kind: "unknown", raw });
  }

  /** What the slot under `key` holds, if anything. */
  kindOf(key: string): Slot["kind"] | undefined {
    return this.byKey.get(key)?.kind;
  }

  hasTool(key: string): boolean {
    return this.byKey.get(key)?.kind === "tool-call";
  }

  /** Append an argument fragment; a fragment for no open call is counted as an orphan. */
  toolArgs(key: string, delta: string): void {
    const slot = this.byKey.get(key);
    if (slot?.kind !== "tool-call") {
      this.orphanFragments++;
      return;
    }
    slot.args += delta;
  }

  /** Replace a tool call's arguments with the final value a `done` event states, if it differs. */
  toolArgsFinal(key: string, args: string): void {
    const slot = this.byKey.get(key);
    if (slot?.kind === "tool-call" && slot.args === "") slot.args = args;
  }

  toolSignature(key: string, signature: string): void {
    const slot = this.byKey.get(key);
    if (slot?.kind === "tool-call") slot.signature = signature;
  }

  hasToolCalls(): boolean {
    return this.slots.some((s) => s.kind === "tool-call");
  }

  parts(): Part[] {
    const out: Part[] = [];
    for (const s of this.slots) {
      if (s.kind === "tool-call") {
        const call: Part = { type: "tool-call", id: s.id, name: s.name, arguments: s.args };
        if (s.signature !== undefined) call.signature = s.signature;
        out.push(call);
      } else if (s.kind === "unknown") {
        out.push({ type: "unknown", raw: s.raw });
      } else if (s.kind === "thinking") {
        const part: Part = { type: "thinking", text: s.text };
        if (s.signature !== undefined) part.signature = s.signature;
        if (s.redacted) part.redacted = true;
        out.push(part);
      } else if (s.text !== "") {
        out.push({ type: s.kind, text: s.text });
      }
    }
    return out;
  }

  /** The text blocks of their own that ended with no text (parts() leaves them out). */
  emptied(): EmptiedItem[] {
    const out: EmptiedItem[] = [];
    for (const s of this.slots) {
      if (s.kind === "text" && s.text === "" && s.block !== undefined) {
        out.push({ kind: "text", at: s.block });
      }
    }
    return out;
  }

  private open(key: string, slot: Slot): void {
    this.slots.push(slot);
    this.byKey.set(key, slot);
  }
}

/** What every stream reader does with each event, and what it returns at the end. */
export interface StreamReader {
  push(event: ReceivedEvent): void;
  /** A framing problem seen by the frame reader. */
  malformed(why: string): void;
  finish(): CanonicalReply;
}

/** The lifecycle bookkeeping shared by the readers. */
export class StreamState {
  readonly assembler = new PartsAssembler();
  readonly reply: CanonicalReply;
  readonly lifecycle: StreamLifecycle = {
    complete: false,
    events: 0,
    malformed: [],
    orphanFragments: 0,
  };

  /** Items the reader read as nothing beside the assembler's empty blocks (reply.emptied). */
  readonly emptied: EmptiedItem[] = [];

  constructor(dialect: Dialect) {
    this.reply = { dialect, parts: [], extras: {} };
  }

  malformed(why: string): void {
    this.lifecycle.malformed.push(why);
  }

  /** Count an event; one that arrives after the terminal event is malformed. */
  count(): number {
    this.lifecycle.events++;
    if (this.lifecycle.complete) {
      this.malformed(
        `event ${this.lifecycle.events}: after the terminal event ${this.lifecycle.terminalEvent}`,
      );
    }
    return this.lifecycle.events;
  }

  /**
   * Event `n`'s data as a JSON object, or undefined with the event counted malformed
   * (`unit` names it in the reason: "event" on SSE, "line" on NDJSON).
   */
  jsonObject(data: string, n: number, unit = "event"): Record<string, unknown> | undefined {
    const parsed = tryParseJson(data);
    const value = parsed.ok ? asRecord(parsed.value) : undefined;
    if (!value) {
      this.malformed(
        `${unit} ${n}: ${parsed.ok ? "not a JSON object" : `not JSON (${parsed.error})`}`,
      );
    }
    return value;
  }

  /** Record the terminal event. */
  terminal(name: string): void {
    this.lifecycle.complete = true;
    this.lifecycle.terminalEvent = name;
  }

  error(error: ReplyError): void {
    this.lifecycle.error = error;
    this.reply.error = error;
  }

  finish(): CanonicalReply {
    this.lifecycle.orphanFragments = this.assembler.orphanFragments;
    const reply = { ...this.reply, parts: this.assembler.parts(), stream: this.lifecycle };
    const emptied = [...this.assembler.emptied(), ...this.emptied];
    if (emptied.length > 0) reply.emptied = emptied;
    return reply;
  }
}
