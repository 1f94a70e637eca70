/**
 * What the mock app needs to offer capture and replay: a route that forwards everything to a
 * live upstream (record-through), and a replay file installed as staged replies that survive
 * `reset`. Both sit here so the app only adds a line each.
 */
import { readFileSync } from "node:fs";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Context } from "hono";
import type { StageStore } from "../stage-store.ts";
import { parseStagedReply } from "../staged-reply-spec.ts";
import { CaptureError } from "./capture-error.ts";
import { type IncomingRequestInfo, incomingFromNode, incomingFromRequest } from "./incoming.ts";
import { sendToNode } from "./node-writer.ts";
import type { ReplayOptions } from "./replay.ts";
import { parseCapture } from "./replay-file.ts";
import { replayStages } from "./staged-reply.ts";

/**
 * A Hono handler answering with `forward` (record-through, or a replay handler), the Response
 * written straight to the socket by `sendToNode` when there is one.
 */
export function recordThroughRoute(forward: (incoming: IncomingRequestInfo) => Promise<Response>) {
  return async (c: Context): Promise<Response> => {
    const env = c.env as Partial<HttpBindings> | undefined;
    const body = new Uint8Array(await c.req.arrayBuffer());
    const incoming = env?.incoming
      ? incomingFromNode(env.incoming, body, c.req.raw.signal)
      : incomingFromRequest(c.req.raw, body);
    const response = await forward(incoming);
    if (!env?.outgoing) return response;
    await sendToNode(response, env.outgoing);
    return RESPONSE_ALREADY_SENT;
  };
}

/**
 * Stage every exchange of a capture file (see `replayStages`) and keep them staged across
 * `clear()`: a replay file is configuration of the listener, not a one-off stage, so
 * `POST /__gatecheck/reset` puts it back. Throws CaptureError naming the file and line.
 */
export function installReplay(stages: StageStore, file: string, options: ReplayOptions = {}): void {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CaptureError(
      "unreadable-file",
      `${file}: cannot read capture file: ${(error as Error).message}`,
      file,
    );
  }
  const parsed = parseStagedReply(replayStages(parseCapture(text, file), options));
  if (!parsed.ok) throw new CaptureError("invalid-exchange", `${file}: ${parsed.error}`, file);
  const specs = parsed.specs;
  const stageAll = () => {
    for (const spec of specs) stages.add(spec);
  };
  const clear = stages.clear.bind(stages);
  stages.clear = () => {
    clear();
    stageAll();
  };
  stageAll();
}
