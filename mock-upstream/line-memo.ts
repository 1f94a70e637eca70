/**
 * The parts of a record line that repeat from request to request, kept as their JSON with
 * the values they were made from: a client sends the same headers, path and model in most
 * of its requests, and the mock answers with the same decision and reply headers, so the
 * next line reuses each part whose values are unchanged instead of redacting and
 * serializing it again. Each part is compared by value, so a line is the same from the
 * recorder's memo as from a fresh one, which makes every part (`line-memo.test.ts` holds the
 * two equal; record-line.test.ts holds a fresh one's line to `JSON.stringify` of the record).
 *
 * One memo per recorder: it holds the last request's header values (a credential among
 * them) in memory only, as the request itself was.
 */
import { redactPath, redactQuery } from "../dialects/credential-url.ts";
import { environmentSecretsNow, recordedHeaderPair } from "../dialects/credentials.ts";
import type { RecordDecision } from "./record.ts";

type Pairs = readonly (readonly [string, string])[];

/** The JSON of one string, remembered for the next call with the same string. */
export class StringJsonMemo {
  #raw: string | undefined;
  #json = "";

  of(raw: string): string {
    if (raw !== this.#raw) {
      this.#raw = raw;
      this.#json = JSON.stringify(raw);
    }
    return this.#json;
  }
}

/**
 * The JSON of a header list as `[[name, value], ...]`, each pair made by `pairJson` and
 * remembered by its position: a pair equal to the one at its place last time is not made
 * again, and a list equal to the last one is the same string.
 */
export class PairsJsonMemo {
  readonly #names: string[] = [];
  readonly #values: string[] = [];
  readonly #parts: string[] = [];
  #json = "[]";

  constructor(readonly pairJson: (name: string, value: string) => string) {}

  of(pairs: Pairs): string {
    let changed = pairs.length !== this.#parts.length;
    for (let i = 0; i < pairs.length; i++) {
      const [name, value] = pairs[i] as readonly [string, string];
      if (name !== this.#names[i] || value !== this.#values[i]) {
        this.#names[i] = name;
        this.#values[i] = value;
        this.#parts[i] = this.pairJson(name, value);
        changed = true;
      }
    }
    if (changed) {
      this.#names.length = this.#values.length = this.#parts.length = pairs.length;
      let json = "[";
      for (let i = 0; i < pairs.length; i++)
        json += i === 0 ? this.#parts[i] : `,${this.#parts[i]}`;
      this.#json = `${json}]`;
    }
    return this.#json;
  }

  clear(): void {
    this.#names.length = this.#values.length = this.#parts.length = 0;
    this.#json = "[]";
  }
}

/** The request's path with its query, as the record keeps it: both redacted. */
export function recordedTarget(path: string, query: string): string {
  const redactedPath = redactPath(path);
  return query === "" ? redactedPath : `${redactedPath}?${redactQuery(query)}`;
}

/**
 * A header pair as the record keeps it, a request's or a reply's (a staged reply's headers
 * are whatever its author wrote): name lower-cased, value redacted, and a key-shaped name
 * redacted too (then left in its case, which the key's shape needs).
 */
export function headerPairJson(name: string, value: string): string {
  const [recordedName, recordedValue] = recordedHeaderPair(name, value);
  return pairJson(recordedName, recordedValue);
}

/** A header the mock wrote itself, as the record keeps it: name lower-cased, nothing to redact. */
function ownHeaderPairJson(name: string, value: string): string {
  return pairJson(name.toLowerCase(), value);
}

/** `JSON.stringify([name, value])`, without the serializer's array path (3x slower on Node 20). */
function pairJson(name: string, value: string): string {
  return `[${JSON.stringify(name)},${JSON.stringify(value)}]`;
}

export class LineMemo {
  readonly receivedAt = new StringJsonMemo();
  readonly listener = new StringJsonMemo();
  readonly method = new StringJsonMemo();
  readonly model = new StringJsonMemo();
  readonly requestHeaders = new PairsJsonMemo(headerPairJson);
  /** A staged reply's headers, written by its author: redacted. */
  readonly stagedReplyHeaders = new PairsJsonMemo(headerPairJson);
  /** The mock's own reply headers (content type, request id): lower-cased only. */
  readonly ownReplyHeaders = new PairsJsonMemo(ownHeaderPairJson);
  #secrets: readonly string[] | undefined;
  #target: { path: string; query: string; json: string } | undefined;
  #decision: RecordDecision | undefined;
  #decisionJson = "";

  /**
   * Called once per line, before the parts that are redacted: what they hold was redacted
   * against the environment's secrets of then, so a refresh of those empties them.
   */
  redactedAgainstNow(): this {
    const secrets = environmentSecretsNow();
    if (secrets !== this.#secrets) {
      this.#secrets = secrets;
      this.requestHeaders.clear();
      this.stagedReplyHeaders.clear();
      this.#target = undefined;
    }
    return this;
  }

  /** The request's path and query, redacted, as JSON (`recordedTarget`). */
  target(path: string, query: string): string {
    const last = this.#target;
    if (last && last.path === path && last.query === query) return last.json;
    const json = JSON.stringify(recordedTarget(path, query));
    this.#target = { path, query, json };
    return json;
  }

  /**
   * A decision's JSON, remembered by identity for a frozen one: almost every request
   * shares the frozen default decision (traffic.ts); the others are made per request.
   */
  decision(decision: RecordDecision): string {
    if (!Object.isFrozen(decision)) return JSON.stringify(decision);
    if (decision !== this.#decision) {
      this.#decision = decision;
      this.#decisionJson = JSON.stringify(decision);
    }
    return this.#decisionJson;
  }
}
