/** Canonical requests and a judged pair, built by hand for the request judge's tests. */
import { expect } from "vitest";
import type { CanonicalRequest, Message, Part } from "../../../dialects/canonical.ts";
import type { ClientDialect, Dialect } from "../../../dialects/dialect.ts";
import type { Verdict } from "../../verdict.ts";
import { judgeRequest, type RequestPair } from "../judge-request.ts";

export function req(dialect: Dialect, over: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    dialect,
    system: [],
    messages: [user("hi")],
    tools: [],
    sampling: {},
    extras: {},
    ...over,
  };
}

export function user(...parts: (string | Part)[]): Message {
  return {
    role: "user",
    parts: parts.map((p) => (typeof p === "string" ? { type: "text", text: p } : p)),
  };
}

export function assistant(...parts: (string | Part)[]): Message {
  return {
    role: "assistant",
    parts: parts.map((p) => (typeof p === "string" ? { type: "text", text: p } : p)),
  };
}

export function judge(
  client: CanonicalRequest,
  forwarded: CanonicalRequest,
  clientBody?: unknown,
): Verdict[] {
  const pair: RequestPair = {
    clientDialect: client.dialect as ClientDialect,
    backend: forwarded.dialect,
    client,
    forwarded,
    clientBody,
  };
  return judgeRequest(pair);
}

export function only(verdicts: Verdict[], field: string): Verdict {
  const found = verdicts.filter((v) => v.field === field);
  expect(found, `verdicts for ${field}: ${JSON.stringify(verdicts)}`).toHaveLength(1);
  return found[0] as Verdict;
}
