/**
 * A tiny stand-in for the recording mock, for this room's own tests: it answers each
 * dialect's generate and model-list paths with a minimal valid reply (JSON or stream) and
 * records what arrived. It knows nothing of probes or staging; the real mock lives in
 * `mock-upstream/`. `hold` keeps matching requests open (to kill a gateway mid-request).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CanonicalReply } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { encodeEvents, writeReply, writeReplyEvents } from "../../dialects/reply.ts";
import { dialectOfPath, requestStreams } from "../../dialects/routes.ts";

export interface TinyRecord {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  dialect?: Dialect;
}

export interface TinyMock {
  url: string;
  records: TinyRecord[];
  /** Requests whose body contains this text are held open, never answered. */
  hold(text: string | undefined): void;
  close(): Promise<void>;
}

const TEXT = "tiny-mock says hi";

function json(res: ServerResponse, value: unknown, status = 200): ServerResponse {
  res.writeHead(status, { "content-type": "application/json" });
  return res.end(JSON.stringify(value));
}

/** One text reply in the dialect, written by its module (the point here is routing, not bytes). */
function reply(
  dialect: Dialect,
  stream: boolean,
  model: string,
  res: ServerResponse,
): ServerResponse {
  const canonical: CanonicalReply = {
    dialect,
    model,
    parts: [{ type: "text", text: TEXT }],
    stopReason: "stop",
    usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
    extras: {},
  };
  const module = dialectModule(dialect);
  if (!stream) {
    res.writeHead(200, { "content-type": module.contentTypes.json });
    return res.end(JSON.stringify(writeReply(dialect, canonical)));
  }
  res.writeHead(200, { "content-type": module.contentTypes.stream, "cache-control": "no-cache" });
  return res.end(encodeEvents(dialect, writeReplyEvents(dialect, canonical)));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

/** `prefix`: a path it serves the dialects under as well (a provider's mount, `/anthropic`). */
export async function startTinyMock(options: { prefix?: string } = {}): Promise<TinyMock> {
  const records: TinyRecord[] = [];
  let holdText: string | undefined;
  const held: ServerResponse[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = req.url ?? "/";
    const match = dialectOfPath(path, options.prefix);
    records.push({
      method: req.method ?? "GET",
      path,
      headers: req.headers,
      body,
      ...(match && { dialect: match.dialect }),
    });
    if (holdText && body.includes(holdText)) {
      held.push(res);
      return;
    }
    if (!match) return json(res, { error: { message: `tiny-mock: no route ${path}` } }, 404);
    if (match.kind === "models")
      return json(res, { object: "list", data: [{ id: "tiny", object: "model" }], models: [] });
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return json(res, { error: { message: "tiny-mock: body is not JSON" } }, 400);
    }
    const model = typeof parsed.model === "string" ? parsed.model : (match.model ?? "tiny");
    reply(match.dialect, requestStreams(match, parsed), model, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    hold: (text) => {
      holdText = text;
    },
    close: () =>
      new Promise((r) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
