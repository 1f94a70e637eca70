/**
 * A remote MCP server's token as part of the server's value. Anthropic's
 * `mcp_servers[].authorization_token` and Responses' MCP tool `authorization` are credentials the
 * client sends for the provider, whose connector presents them to the MCP server: a gateway owes
 * them to the backend, translated to its spelling. So they are compared by value with their
 * server (docs/lens.md, "A credential meant for the provider is a value"), never judged as client
 * credentials, and a server that arrived without its token is the token `dropped`.
 *
 * A token is compared as its redaction tag (dialects/credentials.ts): a recording redacted on
 * both sides, a raw trace and a mix of the two compare alike, and no verdict ever shows a token.
 */
import type { CanonicalRequest, McpServer } from "../../dialects/canonical.ts";
import { redactionTag } from "../../dialects/credentials.ts";
import { isRecord } from "../../dialects/json.ts";
import { sameValue, show, showChange } from "./describe.ts";
import type { Outcome } from "./judgement.ts";

/** A scheme a token may be written with (a redacted `Bearer x` keeps its scheme). */
const SCHEME = /^(Bearer|Basic|Token)\s+/i;

/** The tag that stands for a token, whether it was recorded raw or redacted. */
function tokenTag(token: string): string {
  const bare = token.replace(SCHEME, "");
  return /^\[REDACTED:[0-9a-f]{8}\]$/.test(bare) ? bare : redactionTag(bare);
}

interface ComparableServer {
  name: string;
  url: string;
  authorization?: string;
  allowedTools?: string[];
}

function comparable(s: McpServer): ComparableServer {
  return {
    name: s.name,
    url: s.url,
    ...(s.authorization === undefined ? {} : { authorization: tokenTag(s.authorization) }),
    ...(s.allowedTools === undefined ? {} : { allowedTools: s.allowedTools }),
  };
}

/** The servers as compared: name, URL, token (as its tag), allowed tools; sorted by name. */
export function comparableMcpServers(r: CanonicalRequest): ComparableServer[] | undefined {
  return r.mcpServers
    ?.map(comparable)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function asServers(value: unknown): ComparableServer[] | undefined {
  return Array.isArray(value) && value.every(isRecord)
    ? (value as unknown as ComparableServer[])
    : undefined;
}

function withoutToken(s: ComparableServer): Omit<ComparableServer, "authorization"> {
  const { authorization: _token, ...rest } = s;
  return rest;
}

/**
 * Where the servers differ only in their tokens: every token sent that did not arrive is
 * `dropped` (cause `token-dropped`); a token that arrived changed, or one nobody sent, leaves
 * the whole `mangled` (undefined here). Any other difference is not the token's.
 */
export function mcpTokenOutcome(sent: unknown, got: unknown): Outcome | undefined {
  const a = asServers(sent);
  const b = asServers(got);
  if (!a || !b || a.length !== b.length) return undefined;
  const lost: string[] = [];
  for (let i = 0; i < a.length; i++) {
    const s = a[i] as ComparableServer;
    const g = b[i] as ComparableServer;
    if (!sameValue(withoutToken(s), withoutToken(g))) return undefined;
    if (s.authorization === g.authorization) continue;
    if (s.authorization === undefined || g.authorization !== undefined) return undefined;
    lost.push(s.name);
  }
  if (lost.length === 0) return undefined;
  const which = lost.map((n) => show(n)).join(", ");
  return {
    kind: "dropped",
    detail: `${showChange(sent, got)} (the token of ${which} did not arrive)`,
    cause: "token-dropped",
    sent,
    got,
  };
}
