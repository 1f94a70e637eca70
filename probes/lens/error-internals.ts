/**
 * A gateway's internals in an error body (issue 20 §2): stack frames, Python tracebacks, Go
 * goroutine dumps, `node_modules/` paths and other local file paths the gateway added to the
 * error the client got. No API reference defines them in an error (Anthropic's error is
 * `{type, error: {type, message}}`, OpenAI's `{error: {message, type, param, code}}`), the
 * upstream's error body did not hold them, and they tell a caller where the gateway is
 * installed and what it runs: `invented`, cause `internals`. docs/lens.md has the rule.
 *
 * Judged on an error reply (non-2xx, an error object, a stream's error event) when what the
 * upstream sent is known: its reply was recorded, or nothing was forwarded at all. Marks that
 * the upstream's own body holds were passed on, not added: `preserved`.
 */
import type { CanonicalReply } from "../../dialects/canonical.ts";
import { tryParseJson } from "../../dialects/json.ts";
import type { Verdict } from "../verdict.ts";
import { show, verdict } from "./describe.ts";

/** Each kind of internal, and the text that marks it inside one string of the body. */
const MARKS: readonly { what: string; pattern: RegExp }[] = [
  { what: "a Python traceback", pattern: /Traceback \(most recent call last\)/ },
  { what: "a Python stack frame", pattern: /File "[^"\n]+", line \d+/ },
  {
    what: "a JavaScript stack frame",
    pattern:
      /^\s*at (?:async )?(?:[^\s()]+ )?\(?(?:\/|[A-Za-z]:\\|file:\/\/|node:)[^\s()]*:\d+(?::\d+)?\)?\s*$/m,
  },
  { what: "a Go goroutine dump", pattern: /goroutine \d+ \[[^\]\n]+\]:/ },
  { what: "a node_modules path", pattern: /[^\s"'()]*node_modules[\\/][^\s"'():]+/ },
  {
    what: "a local file path",
    pattern:
      /(?<=^|[\s"'(=])(?:\/(?:home|Users|usr|opt|var|tmp|srv|root|work|etc|mnt|private)\/[^\s"'():,]+|[A-Za-z]:\\[^\s"'():,]+)/,
  },
];

/** Every string inside a body: a JSON value's strings, each SSE event's, or the text itself. */
export function bodyStrings(text: string): string[] {
  const whole = tryParseJson(text);
  if (whole.ok) return stringsOf(whole.value);
  const out: string[] = [];
  let parsedAny = false;
  for (const line of text.split("\n")) {
    const data = line.startsWith("data:") ? line.slice(5).trim() : line.trim();
    if (data === "") continue;
    const parsed = tryParseJson(data);
    if (parsed.ok) {
      parsedAny = true;
      out.push(...stringsOf(parsed.value));
    } else {
      out.push(data);
    }
  }
  return parsedAny ? out : [text];
}

function stringsOf(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        stack.push(x);
      }
    }
  }
  return out;
}

interface Found {
  what: string;
  text: string;
}

/** The internals marked in a body's strings, one per kind, in MARKS order. */
export function internalsIn(strings: readonly string[]): Found[] {
  const out: Found[] = [];
  for (const { what, pattern } of MARKS) {
    for (const s of strings) {
      const m = pattern.exec(s);
      if (m) {
        out.push({ what, text: m[0].trim() });
        break;
      }
    }
  }
  return out;
}

function isError(reply: CanonicalReply, status: number): boolean {
  return status < 200 || status >= 300 || reply.error !== undefined || !!reply.stream?.error;
}

/**
 * The client's error body against what the upstream sent (`upstreamText`: its body, or "" when
 * nothing was forwarded). No verdict when the client got no error.
 */
export function judgeErrorInternals(
  client: CanonicalReply,
  clientStatus: number,
  clientText: string,
  upstreamText: string,
): Verdict | undefined {
  if (!isError(client, clientStatus)) return undefined;
  const base = {
    direction: "reply",
    subject: "error.internals",
    field: "error.internals",
  } as const;
  const found = internalsIn(bodyStrings(clientText));
  if (found.length === 0) {
    return verdict({ ...base, kind: "preserved", detail: "no stack frame or local path → none" });
  }
  const upstream = bodyStrings(upstreamText).join("\n");
  const added = found.filter((f) => !upstream.includes(f.text));
  const shown = (fs: Found[]) => fs.map((f) => `${f.what} ${show(f.text)}`).join("; ");
  if (added.length === 0) {
    return verdict({ ...base, kind: "preserved", detail: `${shown(found)} → passed on as sent` });
  }
  return verdict({
    ...base,
    kind: "invented",
    detail: `absent upstream → ${shown(added)}`,
    cause: "internals",
  });
}
