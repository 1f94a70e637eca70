/**
 * The closed vocabulary of a verdict's `cause`: why a verdict is what it is, where the verdict
 * alone does not say. Every judge picks from this list (the compiler holds it to it), so a
 * query by cause finds every case of one kind, and docs/lens.md describes each.
 */
export const CAUSES = {
  // Request direction: how a value was carried, or why it was not.
  routed: "the model name was replaced by the gateway's configured routing",
  "unknown-key": "carried under a key the backend defines, which its reader does not map",
  malformed: "present under the backend's own key in a shape the backend does not define",
  "foreign-key": "found only under a key the backend does not define (another dialect's key)",
  "as-budget": "an effort level carried as a thinking budget (the nearest unit)",
  "as-effort": "a thinking budget carried as an effort level (the nearest unit)",
  "as-off":
    "an effort of none (or minimal) carried by the target's off switch (thinking disabled, think false, a budget of 0)",
  "include-thoughts": "thinking asked for through Gemini's includeThoughts",
  "not-forwarded": "no request reached the backend",
  "no-message": "the gateway refused with no error message",
  unreadable: "a side the lens could not read",
  "absent-in-source": "the field is not in the side it is judged from",
  transport: "no response from the gateway (connection refused, reset, timed out)",
  lens: "the lens could not judge the exchange (a bug of ours: the reason says where)",
  replaced: "a header's value was replaced",
  "missing-query":
    "the backend route's query is none its documented variants have (Gemini ?alt=proto)",
  "wrong-route": "forwarded to a path that is not the backend dialect's route",
  "strict-provider": "a strict provider (the mock's persona) rejected what the gateway forwarded",
  "token-dropped":
    "a credential the client sent for the provider (a remote MCP server's token) did not arrive with its server",
  // Where a client credential reached the backend (a leak names its surface).
  "in-auth-header": "a client credential in a header a backend authenticates with",
  "in-other-header": "a client credential in a header that authenticates nothing",
  "in-query": "a client credential in the forwarded query string",
  "in-body": "a client credential in the forwarded body",
  // Content and ordering.
  moved: "the system text moved into a message",
  "role-changed": "a developer message became a system message",
  stringified: "media carried as its base64 or URL inside text",
  "malformed-part": "a content part the backend cannot read",
  "reasoning-as-text": "reasoning or thinking carried as visible text",
  "turn-emptied": "a turn arrived with its content gone",
  "turns-lost": "whole turns are missing",
  reordered: "messages or parts arrived in another order",
  "phantom-message": "a message nobody sent",
  "empty-text": "an empty text block nobody sent",
  "cache-added": "a cache marker nobody sent",
  "tool-added": "a tool nobody declared",
  "part-keys-added":
    "keys beside a structure (a content part, an output format) that the client never sent there",
  "value-added": "a request value (a sampling value, a service tier) the client never set",
  "empty-added": "an empty value (`system: []`, `tools: []`) under a key the client never sent",
  "required-fill": "a value the target requires and the request does not determine, filled in",
  "rewritten-linked": "a tool-call id rewritten, every result still linking to it",
  "name-linked":
    "a tool result linked to its call by the function's name, where the backend defines no call id",
  unlinked: "a tool result no longer links to its call",
  wrapped: "a tool result wrapped in the object the backend requires",
  "schema-changed": "a tool schema arrived with another meaning",
  "schema-additions": "a tool schema arrived with keys added",
  // Reply direction.
  reissued: "the gateway issued its own message id",
  rewritten: "a message id changed where the client's dialect is the backend's own",
  "erased-safety": "a safety stop reached the client as a natural stop",
  "erased-truncation": "a length stop reached the client as a natural stop",
  "erased-tool-turn": "a tool-call stop reached the client as a natural stop",
  "erased-other":
    "an upstream stop of no canonical meaning (an unnamed incomplete) reached the client as a natural stop",
  "status-changed": "the client got another status than the upstream sent",
  "not-a-stream": "a streamed request answered without a stream",
  "truncated-stream": "a stream that ended before its terminal event",
  "malformed-events": "stream events the client dialect does not define",
  "orphan-fragments": "tool-argument fragments that belong to no call",
  "completion-invented": "a terminal event the upstream never sent",
  "error-swallowed": "an upstream error that reached the client as a success",
  "id-rewritten": "a tool-call id changed on its way to the client",
  internals:
    "stack frames, a traceback or local file paths the gateway added to the error the client got",
  "status-type":
    "no upstream error type: the client's is judged against its dialect's type for the status",
  // What the client's reply alone shows (reply-invariants.ts).
  "as-upstream":
    "a fault the upstream's own reply already showed, relayed to the client unchanged: not the gateway's",
  "no-tool-stop": "a reply holding a tool call ends without its dialect's tool stop reason",
  "invalid-arguments": "a tool call's arguments are not a JSON object",
  "id-out-of-form": "a tool-call id outside the form the client's dialect documents for it",
  "after-terminal": "stream events after the terminal event, or a second response in one stream",
  "after-block-stop": "stream events for a content block after that block's stop event",
  "block-lifecycle":
    "a content block started twice, or a delta or stop for a block never started, or never stopped",
  // Failure axis (docs/failure.md).
  "status-relabelled": "an upstream error delivered as a 2xx",
  "status-class-changed": "an upstream error delivered with another status class",
  "status-recoded": "an upstream error delivered with another status of the same class",
  "undecoded-gzip": "a gzip error body passed on still compressed",
  "error-object-stringified": "an error object turned into a string such as 'undefined'",
  "error-text-lost": "the upstream's error message did not reach the client",
  "error-as-content": "the upstream's error message delivered as the answer's text",
  "outside-message": "the upstream's error message in the body, outside the error's message",
  "clean-end-after-failure": "a stream that failed upstream ended cleanly downstream",
  "retried-non-retryable": "a non-retryable status was retried",
  "retry-storm": "more retries than any documented policy allows",
  "answer-lost": "the upstream answered but the client got no answer",
  "success-lost": "a retried success did not reach the client intact",
  "deadline-exceeded": "the client waited longer than its stated deadline",
  "no-fallback": "stayed on a target the gateway is configured to leave on this status",
  "unconfigured-fallback": "moved to another target on a status it is not configured for",
  "fallback-hop-lost": "a field lost on the hop to the second target",
} as const satisfies Record<string, string>;

export type Cause = keyof typeof CAUSES;

export function isCause(value: unknown): value is Cause {
  return typeof value === "string" && Object.hasOwn(CAUSES, value);
}
