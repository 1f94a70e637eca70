/**
 * Which recorded exchange answers an incoming request. Strategies:
 * - `nonce`: the exchange whose request carried the same nonce;
 * - `model`: same model (body `model`, or Gemini's path) and same path;
 * - `path`: same method and path;
 * - `order`: the next exchange in file order, each served once;
 * - `auto` (default): nonce when the request has one that was recorded, else model, else path,
 *   else order.
 * Among several candidates the first one not served yet wins; when all were served, the last
 * candidate is served again (a probe repeated N times replays its one recording N times).
 */
import { isUtf8 } from "node:buffer";
import { asRecord, asString, tryParseJson } from "../../dialects/json.ts";
import { dialectOfPath } from "../../dialects/routes.ts";
import { findNonce } from "../nonce.ts";
import { type Exchange, pathOnly } from "./exchange.ts";
import type { IncomingRequestInfo } from "./incoming.ts";

export const MATCH_STRATEGIES = ["auto", "nonce", "model", "path", "order"] as const;
export type MatchStrategy = (typeof MATCH_STRATEGIES)[number];

interface RequestKeys {
  nonce?: string;
  model?: string;
  method: string;
  path: string;
}

function keysOf(incoming: IncomingRequestInfo): RequestKeys {
  const bytes = Buffer.from(incoming.body);
  const text = isUtf8(bytes) ? bytes.toString("utf8") : bytes.toString("latin1");
  const parsed = tryParseJson(text);
  const model =
    dialectOfPath(incoming.path)?.model ??
    (parsed.ok ? asString(asRecord(parsed.value)?.model) : undefined);
  return { nonce: findNonce(text), model, method: incoming.method, path: incoming.path };
}

export class ReplayMatcher {
  private readonly served = new Set<number>();
  private cursor = 0;

  constructor(
    readonly exchanges: readonly Exchange[],
    readonly strategy: MatchStrategy = "auto",
  ) {}

  match(incoming: IncomingRequestInfo): Exchange | undefined {
    const keys = keysOf(incoming);
    const order =
      this.strategy === "auto" ? (["nonce", "model", "path", "order"] as const) : [this.strategy];
    for (const strategy of order) {
      const found = strategy === "order" ? this.nextInOrder() : this.pick(strategy, keys);
      if (found) return found;
    }
    return undefined;
  }

  private pick(strategy: "nonce" | "model" | "path", keys: RequestKeys): Exchange | undefined {
    const candidates: number[] = [];
    this.exchanges.forEach((exchange, index) => {
      const path = pathOnly(exchange.request);
      const hit =
        strategy === "nonce"
          ? keys.nonce !== undefined && exchange.nonce === keys.nonce
          : strategy === "model"
            ? keys.model !== undefined && exchange.model === keys.model && path === keys.path
            : exchange.request.method === keys.method && path === keys.path;
      if (hit) candidates.push(index);
    });
    const index = candidates.find((i) => !this.served.has(i)) ?? candidates.at(-1);
    if (index === undefined) return undefined;
    this.served.add(index);
    return this.exchanges[index];
  }

  private nextInOrder(): Exchange | undefined {
    while (this.cursor < this.exchanges.length && this.served.has(this.cursor)) this.cursor += 1;
    if (this.cursor >= this.exchanges.length) return undefined;
    this.served.add(this.cursor);
    return this.exchanges[this.cursor++];
  }
}
