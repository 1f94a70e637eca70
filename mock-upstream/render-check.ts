/**
 * The render check of staged canonical bodies: each is rendered once per dialect and mode
 * when it is staged, so a stream plan that cannot apply (chunks that do not join to the text)
 * is refused then (400), not when a request comes. A heavy body (200 KB of text in 1-byte
 * chunks: 200,000 events) takes seconds per render, so the control API runs the check a
 * render at a time, giving the event loop back between renders that take long: traffic is
 * answered meanwhile, not after all ten. `stage()` in process checks at once. A body whose
 * render took `SLICE_MS` or more is marked heavy (`isHeavyBody`): the request that takes it
 * renders it off the request path (heavy-render.ts).
 */
import { DIALECTS } from "../dialects/dialect.ts";
import { canonicalBody } from "./dialect-replies.ts";
import type { StagedReplySpec } from "./staged-reply-spec.ts";

type RenderedCanonical = Parameters<typeof canonicalBody>[1];

interface CanonicalStep {
  /** The spec's body object, which the render cache (reply-engine.ts) is keyed on. */
  body: object;
  canonical: RenderedCanonical;
  plan: unknown;
  where: string;
}

function canonicalSteps(specs: readonly StagedReplySpec[]): CanonicalStep[] {
  const out: CanonicalStep[] = [];
  for (const [i, spec] of specs.entries()) {
    const steps = spec.sequence ?? (spec.reply ? [spec.reply] : []);
    for (const [j, step] of steps.entries()) {
      const body = step.body;
      if (!body || !("canonical" in body)) continue;
      const where = `${specs.length > 1 ? `[${i}].` : ""}${spec.sequence ? `sequence[${j}]` : "reply"}.body`;
      out.push({ body, canonical: body.canonical, plan: body.plan, where });
    }
  }
  return out;
}

/**
 * Outcomes by the JSON text of a body and its plan ("" renders everywhere), the last 2,000:
 * ten renders cost more than answering the request they are staged for, and a sweep stages
 * the same probe's reply for every mode and repeat (staged bodies are JSON data, so the text
 * is all a render reads).
 */
const renderProblems = new Map<string, { problem: string; heavy: boolean }>();
const MAX_REMEMBERED = 2000;

/** Renders run back to back until they have taken this long; then the loop gets a turn. */
export const SLICE_MS = 8;

/**
 * Runs a generator to its end, giving the event loop back whenever a stretch of it has run
 * `SLICE_MS`: the sliced renders (the staging check, a heavy staged reply) share this loop.
 */
export async function driveYielding<T>(run: Generator<unknown, T>): Promise<T> {
  let since = performance.now();
  let next = run.next();
  while (!next.done) {
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
    next = run.next();
  }
  return next.value;
}

/** Staged bodies one of whose check renders held the event loop for `SLICE_MS` or more. */
const heavyBodies = new WeakSet<object>();

/**
 * Whether this staged body's render holds the event loop long (its check said so when it
 * was staged): the request that takes it then renders it in slices (heavy-render.ts).
 */
export function isHeavyBody(body: object): boolean {
  return heavyBodies.has(body);
}

/**
 * The check of one body as a generator that pauses after each render, so a caller can run
 * it at once or give the event loop back between renders. Returns the first render error.
 */
function* renderProblem(step: CanonicalStep): Generator<void, string | undefined> {
  const key = JSON.stringify([step.canonical, step.plan ?? null]);
  const known = renderProblems.get(key);
  if (known !== undefined) {
    if (known.heavy) heavyBodies.add(step.body);
    return known.problem || undefined;
  }
  let problem = "";
  let heavy = false;
  check: for (const dialect of DIALECTS) {
    for (const stream of [false, true]) {
      const start = performance.now();
      try {
        canonicalBody(dialect, step.canonical, { stream, plan: step.plan });
      } catch (error) {
        problem = (error as Error).message;
        break check;
      }
      heavy ||= performance.now() - start >= SLICE_MS;
      yield;
    }
  }
  if (heavy) heavyBodies.add(step.body);
  if (renderProblems.size >= MAX_REMEMBERED) renderProblems.clear();
  renderProblems.set(key, { problem, heavy });
  return problem || undefined;
}

function described(step: CanonicalStep, problem: string | undefined): string | undefined {
  return problem === undefined ? undefined : `invalid staged reply: ${step.where}: ${problem}`;
}

/** The first canonical body of these specs that cannot be rendered, said with where it is. */
export function checkRenderable(specs: readonly StagedReplySpec[]): string | undefined {
  for (const step of canonicalSteps(specs)) {
    const run = renderProblem(step);
    let next = run.next();
    while (!next.done) next = run.next();
    const problem = described(step, next.value);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The next turn of the event loop, after its I/O: a timer, not `setImmediate`, so the
 * replies the mock holds to the end of the turn (end-of-turn.ts) go out before the next
 * render starts.
 */
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * `checkRenderable`, giving the event loop back between renders once they have held it for
 * `SLICE_MS` (a small body's ten renders take well under a millisecond and wait for nothing).
 */
export async function checkRenderableYielding(
  specs: readonly StagedReplySpec[],
): Promise<string | undefined> {
  for (const step of canonicalSteps(specs)) {
    const problem = described(step, await driveYielding(renderProblem(step)));
    if (problem) return problem;
  }
  return undefined;
}
