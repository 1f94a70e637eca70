/**
 * The reference gateways, live: LiteLLM, any-llm and Switchyard installed from their hash
 * locks (cached in .gatecheck-cache, as a sweep installs them), Portkey from npm, each swept
 * over its most telling routes against the mock. Every assertion is what a careful reader
 * finds in the bytes (docs/gateways.md says which reference finding each one reproduces).
 * While the sweep runs, every listening socket of every gateway process is read from /proc:
 * none may be reachable beyond loopback.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayAdapter, GatewaySpec } from "../gateways/adapter.ts";
import {
  exposedSockets,
  type ListeningSocket,
  listeningSockets,
} from "../gateways/listening-sockets.ts";
import { groupMembers, trackedGroups } from "../gateways/process-group.ts";
import { requireAdapter } from "../gateways/registry.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import type { CellRecord } from "../results/records.ts";
import { openStore } from "../results/store.ts";
import { runSweep, type SweepResult } from "./run-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-live-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A gateway at its pinned version, limited to the routes named. */
function column(
  name: string,
  routes: readonly string[],
): { adapter: GatewayAdapter; spec: GatewaySpec } {
  const base = requireAdapter(name);
  const adapter = {
    ...base,
    routes: (s: GatewaySpec) => base.routes(s).filter((r) => routes.includes(r.id)),
  };
  return { adapter, spec: { name, version: base.defaultVersion } };
}

const PROBES = [
  "oc-temperature",
  "oc-credential-body-api-key",
  "oc-reasoning-effort",
  "oc-tool-call-arguments",
  "am-disable-parallel-tool-use",
  "am-thinking-history",
  "am-stop-sequences",
  "am-reply-finish-content-filter",
  "am-reply-finish-length",
  "am-tool-result-image",
  "am-path-generate",
  "oc-path-generate",
  "oc-error-429",
];

let result: SweepResult;
let cells: CellRecord[] = [];
const sockets: ListeningSocket[] = [];

beforeAll(async () => {
  let watching = true;
  const watch = (async () => {
    while (watching) {
      for (const pgid of trackedGroups()) {
        for (const pid of groupMembers(pgid) ?? []) sockets.push(...listeningSockets(pid));
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  try {
    result = await runSweep({
      columns: [
        column("litellm", [
          "anthropic-messages->openai-responses",
          "openai-responses->openai-responses",
          "openai-chat->anthropic-messages",
          "openai-chat->openai-chat@moonshot",
          "openai-chat->openai-chat@google",
          "anthropic-messages->anthropic-messages@deepseek",
        ]),
        column("any-llm", ["openai-chat->openai-chat", "anthropic-messages->gemini"]),
        column("switchyard", [
          "anthropic-messages->openai-responses",
          "anthropic-messages->openai-chat",
          "openai-chat->openai-chat",
        ]),
        column("portkey", ["openai-chat->anthropic-messages@anthropic"]),
      ],
      probes: CORPUS.filter((p) => PROBES.includes(p.id)),
      modes: ["non-stream"],
      repeats: 2,
      minutes: 15,
      concurrency: 4,
      dbPath: join(dir, "gc.db"),
      outDir: dir,
      attemptTimeoutMs: 30_000,
      args: {},
    });
  } finally {
    watching = false;
    await watch;
  }
  const store = openStore(result.dbPath);
  try {
    cells = store.cells(result.runId);
  } finally {
    store.close();
  }
}, 25 * 60_000);

const cell = (column: string, route: string, probe: string) =>
  cells.find(
    (c) => c.column.startsWith(`${column}@`) && c.routeId === route && c.probeId === probe,
  );

it("every live gateway ran, and no socket of any gateway process listened beyond loopback", () => {
  expect(result.columns.map((c) => [c.label, c.status, c.reason ?? ""])).toEqual([
    ["litellm@1.96.2", "ok", ""],
    ["any-llm@1.14.0", "ok", ""],
    ["switchyard@0.3.0", "ok", ""],
    ["portkey@1.15.2", "ok", ""],
  ]);
  // Four gateways listened (LiteLLM, any-llm, Switchyard's server thread, Portkey).
  expect(new Set(sockets.map((s) => s.pid)).size).toBeGreaterThanOrEqual(4);
  expect(exposedSockets(sockets)).toEqual([]);
  expect(trackedGroups()).toEqual([]);
});

describe("LiteLLM 1.96.2", () => {
  it("drops disable_parallel_tool_use on /v1/messages to an OpenAI deployment (sent to Responses), while its Responses ingress carries parallel_tool_calls", () => {
    expect(
      cell("litellm", "anthropic-messages->openai-responses", "am-disable-parallel-tool-use"),
    ).toMatchObject({
      verdict: "dropped",
      reason: "tool_choice.disable_parallel_tool_use: false → absent",
      controlVerdict: "preserved",
    });
  });
  it("turns Anthropic thinking history into visible text on the way to Responses", () => {
    expect(
      cell("litellm", "anthropic-messages->openai-responses", "am-thinking-history"),
    ).toMatchObject({
      verdict: "mangled",
      cause: "reasoning-as-text",
    });
  });
  it("lets a body api_key become the upstream credential", () => {
    const c = cell("litellm", "openai-chat->anthropic-messages", "oc-credential-body-api-key");
    expect(c?.verdict).toBe("leaked");
    expect(c?.reason).toMatch(
      /credentials\.body\.api_key: "\[REDACTED:[0-9a-f]+\]" → forwarded header x-api-key/,
    );
  });
  it("carries reasoning_effort to Anthropic as a thinking budget, the model declared a reasoning model", () => {
    // Without `model_info: {supports_reasoning: true}` on the deployment it refused the
    // request (400 UnsupportedParamsError), which was our configuration, not its translation.
    expect(cell("litellm", "openai-chat->anthropic-messages", "oc-reasoning-effort")).toMatchObject(
      {
        verdict: "preserved",
        reason: 'reasoning_effort: "high" → absent, carried as a thinking budget 4096',
      },
    );
  });
  it("forwards to a provider's mount of the dialect, which is the right path there", () => {
    expect(cell("litellm", "openai-chat->openai-chat@google", "oc-path-generate")).toMatchObject({
      verdict: "preserved",
    });
    expect(
      cell("litellm", "anthropic-messages->anthropic-messages@deepseek", "am-path-generate")
        ?.reason,
    ).toMatch(/→ "\/anthropic\/v1\/messages" \(the anthropic-messages route at deepseek's mount/);
  });
  it("carries temperature to Anthropic (a clean cell, so the rig is not seeing loss everywhere)", () => {
    expect(cell("litellm", "openai-chat->anthropic-messages", "oc-temperature")).toMatchObject({
      verdict: "preserved",
    });
  });
  it("forwards an assistant tool call without content, which Moonshot refuses", () => {
    const c = cell("litellm", "openai-chat->openai-chat@moonshot", "oc-tool-call-arguments");
    expect(c).toMatchObject({ verdict: "rejected", cause: "strict-provider" });
    expect(c?.reason).toMatch(
      /^moonshot rejected what the gateway forwarded \(rule moonshot\/tool-call-content-present: "Invalid request: the message at position \d+ with role 'assistant' must not be empty"; see https:\/\//,
    );
  });
});

describe("any-llm 1.14.0", () => {
  it("drops reasoning_effort even from OpenAI Chat to OpenAI Chat", () => {
    expect(cell("any-llm", "openai-chat->openai-chat", "oc-reasoning-effort")).toMatchObject({
      verdict: "dropped",
      reason: 'reasoning_effort: "high" → absent',
    });
    expect(cell("any-llm", "openai-chat->openai-chat", "oc-temperature")).toMatchObject({
      verdict: "preserved",
    });
  });
  it("answers an upstream 429 with a 500, once its provider SDK's retries are off (the deployment we measure)", () => {
    // With the SDK's default 2 retries it slept the probe's Retry-After: 30 twice and the
    // client gave up first: the cell was `error` and said nothing of the relay.
    expect(cell("any-llm", "openai-chat->openai-chat", "oc-error-429")).toMatchObject({
      verdict: "mangled",
      reason: "error.status: 429 → 500",
    });
  });
  it("answers a Gemini MAX_TOKENS stop as a natural end_turn on /v1/messages", () => {
    expect(cell("any-llm", "anthropic-messages->gemini", "am-reply-finish-length")).toMatchObject({
      verdict: "mangled",
      cause: "erased-truncation",
    });
  });
});

describe("Switchyard 0.3.0", () => {
  it("answers an upstream content_filter from Responses as end_turn: the safety stop erased", () => {
    expect(
      cell("switchyard", "anthropic-messages->openai-responses", "am-reply-finish-content-filter"),
    ).toMatchObject({
      verdict: "mangled",
      cause: "erased-safety",
    });
  });
  it("drops thinking history on the way to Responses", () => {
    expect(
      cell("switchyard", "anthropic-messages->openai-responses", "am-thinking-history"),
    ).toMatchObject({
      verdict: "dropped",
    });
  });
  it("empties an image tool result on the way to Chat", () => {
    const c = cell("switchyard", "anthropic-messages->openai-chat", "am-tool-result-image");
    expect(c?.verdict).toBe("mangled");
    expect(c?.reason).toMatch(/→ ""$/);
  });
  it("passes a body api_key through to the upstream on its passthrough route", () => {
    expect(
      cell("switchyard", "openai-chat->openai-chat", "oc-credential-body-api-key"),
    ).toMatchObject({
      verdict: "leaked",
      reason: 'credentials.body.api_key: "[REDACTED:1773b9ec]" → forwarded body',
    });
  });
});

describe("Portkey 1.15.2", () => {
  it("sends an OpenAI Chat request to Anthropic without max_tokens, which Anthropic refuses", () => {
    const c = cell("portkey", "openai-chat->anthropic-messages@anthropic", "oc-temperature");
    expect(c).toMatchObject({ verdict: "rejected", cause: "strict-provider" });
    expect(c?.reason).toBe(
      'anthropic rejected what the gateway forwarded (rule anthropic/max-tokens-required: "max_tokens: Field required"; see https://docs.anthropic.com/en/api/messages); the client got 400',
    );
  });
});
