/**
 * The baseline of the mock's load benchmark: a bare `node:http` server that reads each
 * request's body and answers the bytes it is given, recording nothing. `json` mode sends
 * one body with content-length; `sse` mode sends the same events one `write` each (one HTTP
 * chunk each), as the mock's staged stream does. Plain JavaScript, so it runs without tsx.
 *
 *   node scripts/bench/load/bare-server.mjs --reply FILE --mode json|sse
 *     FILE (json): {"headers": [[name, value], ...], "body": "<base64>"}
 *     FILE (sse):  {"headers": [[name, value], ...], "events": ["<base64>", ...]}
 * Prints `listening on http://127.0.0.1:PORT` as its first line.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { reply: { type: "string" }, mode: { type: "string", default: "json" } },
});
const reply = JSON.parse(readFileSync(values.reply ?? "", "utf8"));
const headers = reply.headers.flat();
const body = reply.body === undefined ? undefined : Buffer.from(reply.body, "base64");
const events = (reply.events ?? []).map((e) => Buffer.from(e, "base64"));

function answerJson(res) {
  res.writeHead(200, [...headers, "content-length", String(body.length)]);
  res.end(body);
}

function answerSse(res) {
  res.writeHead(200, headers);
  for (const event of events) res.write(event);
  res.end();
}

const answer = values.mode === "sse" ? answerSse : answerJson;
const server = createServer((req, res) => {
  req.on("data", () => {});
  req.on("end", () => answer(res));
});
server.keepAliveTimeout = 120_000;
server.listen({ host: "127.0.0.1", port: 0, backlog: 4096 }, () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
