/**
 * A tiny stand-in for the recording mock, for this room's own tests: it answers each
 * dialect's generate and model-list paths with a minimal valid reply (JSON or stream) and
 * records what arrived. It knows nothing of probes or staging; the real mock lives in
 * `mock-upstream/`. `hold` keeps matching requests open (to kill a gateway mid-request).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Dialect } from "../../dialects/dialect.ts";
import { dialectOfPath } from "../../dialects/routes.ts";

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

function isStream(dialect: Dialect, path: string, body: Record<string, unknown>): boolean {
  if (dialect === "gemini") return path.includes("streamGenerateContent");
  if (dialect === "ollama") return body.stream !== false;
  return body.stream === true;
}

function sse(
  res: ServerResponse,
  events: [string | undefined, unknown][],
  done?: string,
): ServerResponse {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [event, data] of events) {
    res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
  }
  if (done) res.write(`data: ${done}\n\n`);
  return res.end();
}

function json(res: ServerResponse, value: unknown, status = 200): ServerResponse {
  res.writeHead(status, { "content-type": "application/json" });
  return res.end(JSON.stringify(value));
}

function reply(
  dialect: Dialect,
  stream: boolean,
  model: string,
  res: ServerResponse,
): ServerResponse {
  const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
  switch (dialect) {
    case "openai-chat": {
      const base = { id: "chatcmpl-tiny", object: "chat.completion", created: 1, model };
      if (!stream) {
        return json(res, {
          ...base,
          choices: [
            { index: 0, message: { role: "assistant", content: TEXT }, finish_reason: "stop" },
          ],
          usage,
        });
      }
      const chunk = { ...base, object: "chat.completion.chunk" };
      return sse(
        res,
        [
          [
            undefined,
            { ...chunk, choices: [{ index: 0, delta: { role: "assistant", content: TEXT } }] },
          ],
          [
            undefined,
            { ...chunk, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage },
          ],
        ],
        "[DONE]",
      );
    }
    case "anthropic-messages": {
      const message = {
        id: "msg_tiny",
        type: "message",
        role: "assistant",
        model,
        content: [{ type: "text", text: TEXT }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 3, output_tokens: 4 },
      };
      if (!stream) return json(res, message);
      return sse(res, [
        [
          "message_start",
          { type: "message_start", message: { ...message, content: [], stop_reason: null } },
        ],
        [
          "content_block_start",
          { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        ],
        [
          "content_block_delta",
          { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: TEXT } },
        ],
        ["content_block_stop", { type: "content_block_stop", index: 0 }],
        [
          "message_delta",
          {
            type: "message_delta",
            delta: { stop_reason: "end_turn", stop_sequence: null },
            usage: { output_tokens: 4 },
          },
        ],
        ["message_stop", { type: "message_stop" }],
      ]);
    }
    case "gemini": {
      const body = {
        candidates: [
          { content: { role: "model", parts: [{ text: TEXT }] }, finishReason: "STOP", index: 0 },
        ],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, totalTokenCount: 7 },
        modelVersion: model,
      };
      return stream ? sse(res, [[undefined, body]]) : json(res, body);
    }
    case "ollama": {
      const done = {
        model,
        created_at: "2025-01-01T00:00:00Z",
        message: { role: "assistant", content: "" },
        done: true,
        done_reason: "stop",
        prompt_eval_count: 3,
        eval_count: 4,
      };
      if (!stream) return json(res, { ...done, message: { role: "assistant", content: TEXT } });
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(
        `${JSON.stringify({ ...done, done: false, done_reason: undefined, message: { role: "assistant", content: TEXT } })}\n`,
      );
      return res.end(`${JSON.stringify(done)}\n`);
    }
    case "openai-responses": {
      const response = {
        id: "resp_tiny",
        object: "response",
        created_at: 1,
        status: "completed",
        model,
        output: [
          {
            type: "message",
            id: "msg_tiny",
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: TEXT, annotations: [] }],
          },
        ],
        usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      };
      if (!stream) return json(res, response);
      return sse(res, [
        [
          "response.created",
          {
            type: "response.created",
            response: { ...response, status: "in_progress", output: [] },
          },
        ],
        [
          "response.output_text.delta",
          {
            type: "response.output_text.delta",
            output_index: 0,
            content_index: 0,
            item_id: "msg_tiny",
            delta: TEXT,
          },
        ],
        ["response.completed", { type: "response.completed", response }],
      ]);
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

export async function startTinyMock(): Promise<TinyMock> {
  const records: TinyRecord[] = [];
  let holdText: string | undefined;
  const held: ServerResponse[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = req.url ?? "/";
    const match = dialectOfPath(path);
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
    reply(match.dialect, isStream(match.dialect, path, parsed), model, res);
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
