/**
 * The control API under `/__gatecheck/`: stage replies, read records, reset, health. Its
 * requests are never recorded as traffic. Errors answer `{"error": "..."}` with a message
 * that says what was wrong and where.
 */
import type { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { jsonTextDepth, tryParseJson } from "../dialects/json.ts";
import { checkRenderable, checkRenderableYielding } from "./render-check.ts";
import type { StageStore } from "./stage-store.ts";
import { parseStagedReply, type StagedReplySpec } from "./staged-reply-spec.ts";
import type { TrafficState } from "./traffic.ts";

export const CONTROL_PREFIX = "/__gatecheck";

const encoder = new TextEncoder();

/**
 * Limits on a staged spec. A 2,000-event stream with long texts is a few hundred KB and the
 * sweep's specs nest under 20 levels; past these a spec is refused with a 413 or 400 that
 * names the limit, instead of costing the mock gigabytes or its stack.
 */
export const SPEC_LIMITS = { bytes: 16 * 1024 * 1024, depth: 128 } as const;

/** How deeply a value nests (arrays and objects), walked with a stack of its own; stops past `limit`. */
export function valueDepth(value: unknown, limit: number): number {
  const stack: [unknown, number][] = [[value, 0]];
  let deepest = 0;
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, depth] = top;
    if (v === null || typeof v !== "object") continue;
    const inner = depth + 1;
    if (inner > deepest) deepest = inner;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, inner]);
  }
  return deepest;
}

/** The 400 message for a spec nested too deep; a value walk stops past the limit. */
function depthProblem(depth: number, exact: boolean): string {
  const levels = exact ? `${depth}` : `more than ${SPEC_LIMITS.depth}`;
  return `staged spec nests ${levels} levels deep; the limit is ${SPEC_LIMITS.depth}`;
}

const MIB = 1024 * 1024;

/** The 413 message when staging `adding` bytes would pass the listener's limit. */
function overLimit(stages: StageStore, adding: number): string {
  const mib = (n: number) => `${(n / MIB).toFixed(1)} MiB`;
  return `staging ${mib(adding)} more would hold ${mib(stages.bytes + adding)} of staged replies, over this mock's limit of ${stages.bytesLimit} bytes (${mib(stages.bytesLimit)}; startMock's stagedBytesLimit, gatecheck mock --staged-limit); drop staged replies first (DELETE /__gatecheck/replies or POST /__gatecheck/reset) or raise the limit`;
}

type Staged = { ok: true; ids: string[] } | { ok: false; status: 400 | 413; error: string };

interface Prepared {
  specs: StagedReplySpec[];
  sizes: number[];
}

/** Validated specs and their sizes, or why they are refused (before any render). */
function prepare(state: TrafficState, input: unknown): Prepared | Exclude<Staged, { ok: true }> {
  const depth = valueDepth(input, SPEC_LIMITS.depth);
  if (depth > SPEC_LIMITS.depth) {
    return { ok: false, status: 400, error: depthProblem(depth, false) };
  }
  const parsed = parseStagedReply(input);
  if (!parsed.ok) return { ...parsed, status: 400 };
  const sizes = parsed.specs.map((spec) => Buffer.byteLength(JSON.stringify(spec)));
  const refused = overLimitProblem(state.stages, sizes);
  return refused ?? { specs: parsed.specs, sizes };
}

function overLimitProblem(
  stages: StageStore,
  sizes: readonly number[],
): Exclude<Staged, { ok: true }> | undefined {
  const adding = sizes.reduce((a, b) => a + b, 0);
  if (stages.bytes + adding <= stages.bytesLimit) return undefined;
  return { ok: false, status: 413, error: overLimit(stages, adding) };
}

/**
 * Validate and stage; returns the ids, or the status (400, or 413 past the staged-bytes
 * limit) and message. Each spec counts as its JSON's bytes; a list is staged whole or not at all.
 */
export function stageSpecs(state: TrafficState, input: unknown): Staged {
  const prepared = prepare(state, input);
  if ("ok" in prepared) return prepared;
  const unrenderable = checkRenderable(prepared.specs);
  if (unrenderable) return { ok: false, status: 400, error: unrenderable };
  return commit(state, prepared);
}

/**
 * `stageSpecs` for the control API: the render check gives the event loop back between
 * renders (render-check.ts), so traffic is answered while a heavy spec is checked. What
 * was staged meanwhile counts against the limit too.
 */
export async function stageSpecsYielding(state: TrafficState, input: unknown): Promise<Staged> {
  const prepared = prepare(state, input);
  if ("ok" in prepared) return prepared;
  const unrenderable = await checkRenderableYielding(prepared.specs);
  if (unrenderable) return { ok: false, status: 400, error: unrenderable };
  return overLimitProblem(state.stages, prepared.sizes) ?? commit(state, prepared);
}

function commit(state: TrafficState, { specs, sizes }: Prepared): Staged {
  return { ok: true, ids: specs.map((spec, i) => state.stages.add(spec, sizes[i])) };
}

export function mountControlApi(app: Hono, state: TrafficState, onReset: () => void): void {
  const base = CONTROL_PREFIX;
  const specSize = bodyLimit({
    maxSize: SPEC_LIMITS.bytes,
    onError: (c) =>
      c.json(
        {
          error: `staged spec is larger than the limit of ${SPEC_LIMITS.bytes} bytes (16 MiB); stage large replies as several specs or replay a capture file`,
        },
        413,
      ),
  });
  app.post(`${base}/replies`, specSize, async (c) => {
    const text = await c.req.text();
    const depth = jsonTextDepth(text);
    if (depth > SPEC_LIMITS.depth) return c.json({ error: depthProblem(depth, true) }, 400);
    const json = tryParseJson(text);
    if (!json.ok) return c.json({ error: `staged reply is not JSON: ${json.error}` }, 400);
    const staged = await stageSpecsYielding(state, json.value);
    if (!staged.ok) return c.json({ error: staged.error }, staged.status);
    return c.json({ staged: staged.ids }, 201);
  });
  app.get(`${base}/replies`, (c) =>
    c.json({
      replies: state.stages.list().map((e) => ({ id: e.id, served: e.served, spec: e.spec })),
    }),
  );
  app.delete(`${base}/replies`, (c) => {
    state.stages.clear();
    return c.json({ ok: true });
  });
  app.get(`${base}/records`, (c) => {
    const nonce = c.req.query("nonce");
    const sinceText = c.req.query("since");
    const since = sinceText === undefined ? undefined : Number(sinceText);
    if (since !== undefined && !Number.isInteger(since)) {
      return c.json(
        { error: `since must be an integer record seq, got ${JSON.stringify(sinceText)}` },
        400,
      );
    }
    // The kept lines are already the records' JSON: joined, not parsed and serialized
    // again, and streamed a piece at a time as the reader takes them, so concurrent reads of
    // 100,000 records cost a piece each, not the whole list each.
    const pieces = state.recorder.listJsonChunks({ nonce, since });
    let opened = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pieces.next();
        if (next.done) {
          controller.enqueue(encoder.encode("}"));
          controller.close();
          return;
        }
        const text = opened ? next.value : `{"records":${next.value}`;
        opened = true;
        controller.enqueue(encoder.encode(text));
      },
      // A reader that goes away ends the pieces, so the recorder knows nobody reads them.
      cancel() {
        pieces.return(undefined);
      },
    });
    return c.body(stream, 200, { "content-type": "application/json" });
  });
  app.post(`${base}/reset`, (c) => {
    onReset();
    return c.json({ ok: true });
  });
  app.get(`${base}/health`, (c) => {
    const { count, evicted, failure } = state.recorder.stats();
    return c.json({
      ok: failure === undefined,
      listener: state.listener,
      records: count,
      ...(evicted > 0 ? { evicted } : {}),
      staged: state.stages.list().length,
      stagedBytes: state.stages.bytes,
      ...(state.persona ? { persona: state.persona.name } : {}),
      ...(failure ? { recorderError: failure.message } : {}),
    });
  });
  app.all(`${base}/*`, (c) =>
    c.json({ error: `no control endpoint ${c.req.method} ${c.req.path}` }, 404),
  );
}
