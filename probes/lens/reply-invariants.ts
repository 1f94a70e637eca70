/**
 * What the client's reply shows alone (issue 20 §3). Many traces are one-sided: a client's
 * request and the response it got, no upstream. Some truths need no second side, so they are
 * judged on every exchange, each as its own subject, whether or not the upstream reply was
 * recorded:
 *
 * - `invariant.tool-stop`: a reply holding a tool call ends with its dialect's tool stop reason
 *   (Anthropic `tool_use`, Chat `tool_calls`; a Responses reply has none: a function_call item
 *   is its tool turn, which the reader reads as one);
 * - `invariant.empty-content`: no empty text block, null-text item or phantom output item
 *   beside the reply's other content (what the readers read as nothing too: `reply.emptied`),
 *   where the client's dialect does not spell "no text" that way (`traits.emptyText`);
 * - `invariant.tool-arguments`: each tool call's arguments, streamed or not, are a JSON object;
 * - `invariant.tool-call-id`: each tool call's id has the form the client's dialect documents
 *   (`traits.toolCallId`: Anthropic's `^[a-zA-Z0-9_-]+$`), where it documents one;
 * - `invariant.one-lifecycle`: a stream has one response and nothing after its terminal event;
 * - `invariant.block-lifecycle`: where a stream's content blocks have events of their own
 *   (Anthropic), each block is started once, its deltas come between its start and its stop,
 *   and nothing for it comes after its stop.
 *
 * An invariant a reply gives no occasion for (no tool call, not a stream, an error reply) gets
 * no verdict. Where the upstream's reply was recorded, a fault it already showed, relayed
 * unchanged, is the upstream's, not the gateway's (as-upstream.ts). docs/lens.md "What one side
 * can show" has the references.
 */
import type { CanonicalReply, Part } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import type { Cause } from "../causes.ts";
import type { Verdict, VerdictKind } from "../verdict.ts";
import { faultKey, faultsWithin, relayedDetail, type UpstreamSide } from "./as-upstream.ts";
import { show, verdict } from "./describe.ts";
import type { ReplyInvariant } from "./field-names.ts";

/**
 * One invariant judged on one reply, before it becomes a verdict: `faults` are the keys of what
 * broke it (a call's argument text, an id, an event's fault without its place), the evidence
 * compared with the upstream's own.
 */
interface Found {
  subject: ReplyInvariant;
  kind: VerdictKind;
  detail: string;
  cause?: Cause;
  faults: readonly string[];
}

function judged(
  subject: ReplyInvariant,
  kind: VerdictKind,
  detail: string,
  cause?: Cause,
  faults: readonly string[] = [],
): Found {
  return cause === undefined
    ? { subject, kind, detail, faults }
    : { subject, kind, detail, cause, faults };
}

type ToolCall = Extract<Part, { type: "tool-call" }>;

function toolCalls(reply: CanonicalReply): ToolCall[] {
  const out: ToolCall[] = [];
  for (const p of reply.parts) if (p.type === "tool-call") out.push(p);
  return out;
}

/**
 * A tool call's stop reason. Only a natural end (or none at all) breaks it: a reply cut for
 * length or stopped by a filter mid-call ends as it must.
 */
function toolStop(reply: CanonicalReply, calls: number): Found {
  const said = reply.rawStopReason ?? reply.stopReason;
  const how = `${calls} tool call(s) → stop ${said === undefined ? "absent" : show(said)}`;
  // The fault is the stop's meaning: the same natural end (or none) is the same fault.
  if (reply.stopReason === undefined) {
    return judged("invariant.tool-stop", "dropped", how, "no-tool-stop", ["none"]);
  }
  if (reply.stopReason === "stop" || reply.stopReason === "stop_sequence") {
    return judged("invariant.tool-stop", "mangled", how, "no-tool-stop", ["natural"]);
  }
  return judged("invariant.tool-stop", "preserved", how);
}

/** Whether a call's arguments are a JSON object (what every dialect documents them to be). */
function objectArguments(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function toolArguments(calls: readonly ToolCall[]): Found {
  const bad = calls.filter((c) => !objectArguments(c.arguments));
  if (bad.length === 0) {
    return judged(
      "invariant.tool-arguments",
      "preserved",
      `${calls.length} call(s) → each a JSON object`,
    );
  }
  const shown = bad.map((c) => `${c.name || c.id} ${show(c.arguments)}`).join("; ");
  const detail = `${calls.length} call(s) → ${bad.length} not a JSON object: ${shown}`;
  const faults = bad.map((c) => c.arguments);
  return judged("invariant.tool-arguments", "mangled", detail, "invalid-arguments", faults);
}

/** Each call's id in the form the reply's dialect documents (none documented: no verdict). */
function toolCallIds(calls: readonly ToolCall[], dialect: Dialect): Found | undefined {
  const form = dialectModule(dialect).traits.toolCallId;
  if (!form) return undefined;
  const bad = calls.filter((c) => !form.test(c.id));
  if (bad.length === 0) {
    return judged("invariant.tool-call-id", "preserved", `${calls.length} id(s) → each ${form}`);
  }
  const shown = bad.map((c) => show(c.id)).join(", ");
  const detail = `${calls.length} id(s) → ${bad.length} outside ${form}: ${shown}`;
  const faults = bad.map((c) => c.id);
  return judged("invariant.tool-call-id", "mangled", detail, "id-out-of-form", faults);
}

/**
 * Empty text parts, and what the reader read as nothing (`reply.emptied`: an Anthropic stream's
 * empty text block, Chat `content: ""`, a Responses message item with no content), beside the
 * reply's content. A reply with no content but these says "no answer": not an addition.
 */
function emptyContent(reply: CanonicalReply, dialect: Dialect): Found | undefined {
  if (dialectModule(dialect).traits.emptyText === "spelling") return undefined;
  if (reply.parts.length === 0) return undefined;
  const faults: string[] = [];
  for (const p of reply.parts) if (p.type === "text" && p.text === "") faults.push("empty text");
  // A reply that is one empty text says "no answer"; an empty block beside content is an addition.
  const content = reply.parts.length - faults.length;
  const emptied = reply.emptied ?? [];
  for (const e of emptied) faults.push(e.kind === "text" ? "empty text" : "phantom item");
  if (faults.length === 0 || content === 0) {
    return judged(
      "invariant.empty-content",
      "preserved",
      `${reply.parts.length} part(s) → none empty`,
    );
  }
  const texts = faults.filter((f) => f === "empty text").length;
  const items = faults.length - texts;
  const where = emptied.length > 0 ? ` (${emptied.map((e) => e.at).join(", ")})` : "";
  const what = [
    texts > 0 ? `${texts} empty text block(s)` : "",
    items > 0 ? `${items} output item(s) holding nothing` : "",
  ]
    .filter((w) => w !== "")
    .join(" and ");
  const detail = `${content} part(s) → ${what} beside them${where}`;
  const cause = texts > 0 ? "empty-text" : "phantom-message";
  return judged("invariant.empty-content", "invented", detail, cause, faults);
}

/**
 * The stream readers mark an event after the terminal one (dialects/reply-parts.ts `count`)
 * and a second `message_start` (Anthropic) among the stream's malformed events.
 */
const SECOND_LIFE = /after the terminal event|a second message_start/;

function oneLifecycle(reply: CanonicalReply): Found | undefined {
  const stream = reply.stream;
  if (!stream) return undefined;
  const extra = stream.malformed.filter((why) => SECOND_LIFE.test(why));
  if (extra.length === 0) {
    const end = stream.complete ? `ends at ${stream.terminalEvent}` : "no terminal event";
    return judged("invariant.one-lifecycle", "preserved", `${stream.events} event(s) → ${end}`);
  }
  const events = new Set(extra.map((why) => /^\w+ (\d+)/.exec(why)?.[1] ?? why)).size;
  const detail = `${stream.events} event(s) → ${events} outside the one response: ${extra.slice(0, 3).join("; ")}`;
  const faults = extra.map(faultKey);
  return judged("invariant.one-lifecycle", "invented", detail, "after-terminal", faults);
}

/**
 * Each content block's lifecycle (dialects/block-lifecycle.ts). An event for a block after its
 * stop is something the block's upstream never sent: `invented (after-block-stop)`; a block
 * started twice, a delta or stop for a block never started, a block never stopped: the
 * block's lifecycle arrived changed, `mangled (block-lifecycle)`, which says more and wins.
 */
function blockLifecycle(reply: CanonicalReply): Found | undefined {
  const blocks = reply.stream?.blocks;
  if (!blocks) return undefined;
  const { count, faults } = blocks;
  if (faults.length === 0) {
    return judged(
      "invariant.block-lifecycle",
      "preserved",
      `${count} block(s) → each started, then its deltas, then stopped`,
    );
  }
  const shown = faults
    .slice(0, 3)
    .map((f) => `${f.fault} ${f.block}${f.event > 0 ? ` (event ${f.event} ${f.type})` : ""}`)
    .join("; ");
  const detail = `${count} block(s) → ${faults.length} event(s) out of a block's lifecycle: ${shown}`;
  const keys = faults.map((f) => `${f.fault} ${f.block} ${f.type}`);
  return faults.some((f) => f.fault !== "after-stop")
    ? judged("invariant.block-lifecycle", "mangled", detail, "block-lifecycle", keys)
    : judged("invariant.block-lifecycle", "invented", detail, "after-block-stop", keys);
}

/**
 * The invariants of one reply, in its own dialect. An error reply (non-2xx, or an error object)
 * holds no answer to judge, but its stream's lifecycle still is.
 */
function invariantsOf(reply: CanonicalReply, dialect: Dialect, status: number): Found[] {
  const out: Found[] = [];
  const answered = status >= 200 && status < 300 && reply.error === undefined;
  // A cut stream's content is judged by stream.terminal; its stop reason never came.
  const whole = !reply.stream || reply.stream.complete;
  if (answered && whole) {
    const calls = toolCalls(reply);
    if (calls.length > 0) {
      out.push(toolStop(reply, calls.length));
      out.push(toolArguments(calls));
      const ids = toolCallIds(calls, dialect);
      if (ids) out.push(ids);
    }
    const empty = emptyContent(reply, dialect);
    if (empty) out.push(empty);
  }
  const life = oneLifecycle(reply);
  if (life) out.push(life);
  const blocks = blockLifecycle(reply);
  if (blocks) out.push(blocks);
  return out;
}

/**
 * Faults of the stream's own events: a gateway that translates writes every event itself, so
 * they can be the upstream's only where the client's dialect is the upstream's.
 */
const EVENT_FAULTS: ReadonlySet<ReplyInvariant> = new Set([
  "invariant.one-lifecycle",
  "invariant.block-lifecycle",
]);

/**
 * The upstream's own fault that the client's is, relayed: the upstream's reply, judged in its
 * own dialect, breaks the same invariant the same way (kind and cause), and every fault the
 * client shows is one of the upstream's. Each dialect's own rules decide: a Chat id of no
 * documented form that reaches an Anthropic client out of Anthropic's form is the gateway's.
 */
function relayedFrom(
  found: Found,
  upstream: UpstreamSide,
  client: Dialect,
  theirs: () => Found[],
): Found | undefined {
  if (EVENT_FAULTS.has(found.subject) && upstream.dialect !== client) return undefined;
  const own = theirs().find((f) => f.subject === found.subject);
  if (!own || own.kind !== found.kind || own.cause !== found.cause) return undefined;
  return faultsWithin(found.faults, own.faults) ? own : undefined;
}

/**
 * The invariants of one client reply pushed onto `out`. With the upstream's reply (recorded and
 * read), a fault it already showed and the client got unchanged is `preserved (as-upstream)`.
 */
export function replyInvariantsInto(
  reply: CanonicalReply,
  client: Dialect,
  status: number,
  out: Verdict[],
  upstream?: UpstreamSide,
): void {
  let theirs: Found[] | undefined;
  const upstreamFound = () => {
    if (!upstream) return [];
    theirs ??= invariantsOf(upstream.reply, upstream.dialect, upstream.status);
    return theirs;
  };
  for (const found of invariantsOf(reply, client, status)) {
    const base = { direction: "reply", subject: found.subject, field: found.subject } as const;
    const own =
      found.faults.length > 0 && upstream && relayedFrom(found, upstream, client, upstreamFound);
    if (own) {
      const detail = relayedDetail(own.detail);
      out.push(verdict({ ...base, kind: "preserved", detail, cause: "as-upstream" }));
    } else {
      out.push(verdict({ ...base, kind: found.kind, detail: found.detail, cause: found.cause }));
    }
  }
}
