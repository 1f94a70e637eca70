import { describe, expect, it } from "vitest";
import type { Dialect, Mode } from "../dialects/dialect.ts";
import type { WireExchange } from "../dialects/wire/exchange.ts";
import type { VerdictKind } from "../probes/verdict.ts";
import type { ColumnHeadline, Defect } from "./defects.ts";
import { renderHeadline } from "./headline-section.ts";
import { type CellRecord, cellKeyString } from "./records.ts";
import {
  auditHeadline,
  isRigSuspect,
  RIG_SIGNS,
  type SignContext,
  unfaithfulReply,
} from "./rig-suspects.ts";
import { renderRigSuspects } from "./rig-suspects-section.ts";
import { PREFLIGHT_REASON } from "./scope.ts";

const PORTKEY = "portkey@1.15.2";
const LITELLM = "litellm@1.96.2";
const DIRECT = "direct@0";
const DEEPSEEK = "openai-chat->openai-chat@deepseek";
const OLLAMA = "openai-chat->openai-chat:ollama";

function exchange(
  backend: Dialect,
  path: string,
  body: unknown,
  reply?: { status: number; contentType: string },
): WireExchange {
  return {
    route: { client: "openai-chat", backend },
    mode: "stream",
    forwarded: [
      {
        method: "POST",
        path,
        headers: [["content-type", "application/json"]],
        body: { data: JSON.stringify(body), encoding: "utf8" },
      },
    ],
    ...(reply
      ? {
          upstreamReply: {
            status: reply.status,
            headers: [["content-type", reply.contentType]],
            body: { data: "", encoding: "utf8" },
          },
        }
      : {}),
  };
}

let nextAttempt = 1;

function defect(
  column: string,
  title: string,
  routes: string[],
  over: Partial<Defect> = {},
): Defect {
  const cells = routes.flatMap((routeId) =>
    (["non-stream", "stream"] as Mode[]).map((mode) => ({
      column,
      routeId,
      probeId: "oc-tools",
      mode,
    })),
  );
  return {
    column,
    rule: "subject",
    title,
    severity: "major",
    severityRule: "default-lost",
    cells,
    routes,
    modes: ["non-stream", "stream"],
    subjects: ["tools"],
    ownCells: cells.length,
    ownKeys: cells.map(cellKeyString),
    example: `${title} on ${routes[0]}`,
    exampleAttempt: { ...(cells[0] as (typeof cells)[0]), attemptId: nextAttempt },
    evidence: routes.map((routeId) => ({
      column,
      routeId,
      probeId: "oc-tools",
      mode: "non-stream" as Mode,
      attemptId: nextAttempt++,
      reason: `${title} on ${routeId}`,
    })),
    knownIssues: [],
    probes: ["oc-tools"],
    ...over,
  };
}

function head(column: string, defects: Defect[], control = false): ColumnHeadline {
  return {
    column,
    control,
    status: "ok",
    cells: 10,
    judged: 10,
    rejected: 0,
    withDefect: defects.length,
    defects,
  };
}

function cell(
  column: string,
  routeId: string,
  mode: Mode,
  verdict: VerdictKind,
  over: Partial<CellRecord> = {},
): CellRecord {
  return {
    runId: "R",
    column,
    routeId,
    probeId: "oc-tools",
    mode,
    clientDialect: "openai-chat",
    backendDialect: "openai-chat",
    definitionHash: "h",
    subject: "tools",
    verdict,
    reason: "r",
    runs: 1,
    counts: { [verdict]: 1 },
    determinism: 1,
    stable: true,
    ...over,
  };
}

const sign = (id: string) => {
  const found = RIG_SIGNS.find((s) => s.id === id);
  if (!found) throw new Error(`no sign ${id}`);
  return found;
};

const ctx = (over: Partial<SignContext>): SignContext => ({
  defect: defect(PORTKEY, "dropped `tools`", [OLLAMA]),
  exchanges: [],
  cells: [],
  heads: [],
  ...over,
});

describe("the rig signs, one by one", () => {
  it("unserved-path: a forwarded path the backend does not serve, a provider's mount served", () => {
    const doubled = exchange("openai-chat", "/v1/v1/chat/completions", { stream: false });
    expect(sign("unserved-path").test(ctx({ exchanges: [doubled] }))).toContain(
      "/v1/v1/chat/completions, which the openai-chat backend does not serve",
    );
    const plain = exchange("openai-chat", "/v1/chat/completions", {});
    expect(sign("unserved-path").test(ctx({ exchanges: [plain] }))).toBeUndefined();
    // Google serves Chat under its mount: the mounted path is served.
    const mounted: WireExchange = {
      ...exchange("openai-chat", "/v1beta/openai/chat/completions", {}),
      context: {
        backendMount: {
          provider: "google",
          at: "/v1beta/openai",
          replaces: "/v1",
          see: "https://ai.google.dev/gemini-api/docs/openai",
        },
      },
    };
    expect(sign("unserved-path").test(ctx({ exchanges: [mounted] }))).toBeUndefined();
  });

  it("unfaithful-reply: SSE to a Gemini stream without alt=sse, JSON to a Chat stream", () => {
    const noAlt = exchange(
      "gemini",
      "/v1beta/models/m:streamGenerateContent",
      {},
      { status: 200, contentType: "text/event-stream" },
    );
    expect(sign("unfaithful-reply").test(ctx({ exchanges: [noAlt] }))).toBe(
      '/v1beta/models/m:streamGenerateContent is ":streamGenerateContent (no alt)", which gemini answers as json-array (application/json; https://cloud.google.com/apis/docs/system-parameters); the mock answered text/event-stream',
    );
    const withAlt = exchange(
      "gemini",
      "/v1beta/models/m:streamGenerateContent?alt=sse",
      {},
      { status: 200, contentType: "text/event-stream" },
    );
    expect(unfaithfulReply(withAlt)).toBeUndefined();
    // Without alt=sse Gemini answers a JSON array: a mock that does is faithful.
    const array = exchange(
      "gemini",
      "/v1beta/models/m:streamGenerateContent",
      {},
      { status: 200, contentType: "application/json; charset=UTF-8" },
    );
    expect(unfaithfulReply(array)).toBeUndefined();
    const chatStreamAsJson = exchange(
      "openai-chat",
      "/v1/chat/completions",
      { stream: true },
      { status: 200, contentType: "application/json" },
    );
    expect(unfaithfulReply(chatStreamAsJson)).toContain("answers as sse (text/event-stream");
    const chatJson = exchange(
      "openai-chat",
      "/v1/chat/completions",
      { stream: false },
      { status: 200, contentType: "application/json; charset=utf-8" },
    );
    expect(unfaithfulReply(chatJson)).toBeUndefined();
    // Ollama streams unless told not to: NDJSON to a body without `stream` is faithful.
    const ollama = exchange(
      "ollama",
      "/api/chat",
      {},
      { status: 200, contentType: "application/x-ndjson" },
    );
    expect(unfaithfulReply(ollama)).toBeUndefined();
    // An error reply is the probe's staging, whatever its form.
    const error = exchange(
      "openai-chat",
      "/v1/chat/completions",
      { stream: true },
      { status: 502, contentType: "text/html" },
    );
    expect(unfaithfulReply(error)).toBeUndefined();
  });

  it("route-check-failed: a not-run cell of the route whose reason is its failed preflight", () => {
    const failed = cell(PORTKEY, OLLAMA, "stream", "not-run", {
      reason: `${PREFLIGHT_REASON} (stream): forwarded to /v1/v1/chat/completions`,
    });
    expect(sign("route-check-failed").test(ctx({ cells: [failed] }))).toBe(
      `${OLLAMA}: route preflight failed (stream): forwarded to /v1/v1/chat/completions`,
    );
    const budget = cell(PORTKEY, OLLAMA, "stream", "not-run", { reason: "budget exhausted" });
    expect(sign("route-check-failed").test(ctx({ cells: [budget] }))).toBeUndefined();
    const otherRoute = { ...failed, routeId: DEEPSEEK };
    expect(sign("route-check-failed").test(ctx({ cells: [otherRoute] }))).toBeUndefined();
  });

  it("control-column: the control column shows the same defect", () => {
    const mine = defect(PORTKEY, "dropped `tools`", [OLLAMA]);
    const control = head(
      DIRECT,
      [defect(DIRECT, "dropped `tools`", ["openai-chat->openai-chat"])],
      true,
    );
    expect(sign("control-column").test(ctx({ defect: mine, heads: [control] }))).toBe(
      `${DIRECT} shows it on 2 cells too`,
    );
    const other = head(DIRECT, [defect(DIRECT, "dropped `tools.strict`", [OLLAMA])], true);
    expect(sign("control-column").test(ctx({ defect: mine, heads: [other] }))).toBeUndefined();
  });

  it("control-leg: every control leg of the defect's cells lost it too", () => {
    const mine = defect(PORTKEY, "dropped `tools`", [OLLAMA]);
    const lostBoth = [
      cell(PORTKEY, OLLAMA, "stream", "dropped", { controlVerdict: "dropped" }),
      cell(PORTKEY, OLLAMA, "non-stream", "dropped", { controlVerdict: "dropped" }),
    ];
    expect(sign("control-leg").test(ctx({ defect: mine, cells: lostBoth }))).toBe(
      "the control leg lost it on 2 of 2 cells that ran one",
    );
    const carried = [
      cell(PORTKEY, OLLAMA, "stream", "dropped", { controlVerdict: "dropped" }),
      cell(PORTKEY, OLLAMA, "non-stream", "dropped", { controlVerdict: "preserved" }),
    ];
    expect(sign("control-leg").test(ctx({ defect: mine, cells: carried }))).toBeUndefined();
    const none = [cell(PORTKEY, OLLAMA, "stream", "dropped")];
    expect(sign("control-leg").test(ctx({ defect: mine, cells: none }))).toBeUndefined();
  });

  it("every-gateway: every measured column of two gateways or more shows it", () => {
    const title = "invented `system` (empty-added)";
    const example = "system: absent → system []";
    const a = head(PORTKEY, [defect(PORTKEY, title, [OLLAMA], { example })]);
    const b = head(LITELLM, [defect(LITELLM, title, [OLLAMA], { example })]);
    const c = head("bifrost@1", [defect("bifrost@1", "dropped `tools`", [OLLAMA])]);
    const mine = a.defects[0] as Defect;
    expect(sign("every-gateway").test(ctx({ defect: mine, heads: [a, b] }))).toBe(
      "all 2 measured columns (2 gateways) show it, with the same example reason",
    );
    // Not identically: another gateway reads it with another value.
    const other = head(LITELLM, [
      defect(LITELLM, title, [OLLAMA], { example: 'system: absent → ""' }),
    ]);
    expect(sign("every-gateway").test(ctx({ defect: mine, heads: [a, other] }))).toBeUndefined();
    expect(sign("every-gateway").test(ctx({ defect: mine, heads: [a, b, c] }))).toBeUndefined();
    // One gateway (two installs of it) is not "every gateway".
    const locked = head(`${PORTKEY}+locked`, [
      defect(`${PORTKEY}+locked`, title, [OLLAMA], { example }),
    ]);
    expect(sign("every-gateway").test(ctx({ defect: mine, heads: [a, locked] }))).toBeUndefined();
  });

  it("has a test above for every sign", () => {
    expect(RIG_SIGNS.map((s) => s.id)).toEqual([
      "unserved-path",
      "unfaithful-reply",
      "route-check-failed",
      "control-column",
      "control-leg",
      "every-gateway",
    ]);
  });
});

describe("the audit", () => {
  const doubled = (id: number) =>
    [id, exchange("openai-chat", "/v1/v1/chat/completions", { stream: false })] as const;

  it("splits a defect whose routes differ: the unsigned routes stay cited, the signed ones are suspects", () => {
    const d = defect(PORTKEY, "dropped `tools`", [OLLAMA, DEEPSEEK]);
    const deepseekAttempt = d.evidence.find((e) => e.routeId === DEEPSEEK)?.attemptId ?? 0;
    const cells = [
      cell(PORTKEY, OLLAMA, "stream", "dropped", { knownIssue: "Portkey-AI/gateway#1" }),
    ];
    const [audited] = auditHeadline(
      [head(PORTKEY, [d])],
      cells,
      new Map([doubled(deepseekAttempt)]),
    );
    const parts = audited?.defects ?? [];
    expect(parts.map((p) => [p.routes, p.cells.length, p.ownCells, isRigSuspect(p)])).toEqual([
      [[OLLAMA], 2, 2, false],
      [[DEEPSEEK], 2, 2, true],
    ]);
    expect(parts[0]?.knownIssues).toEqual(["Portkey-AI/gateway#1"]);
    expect(parts[1]?.signs?.map((s) => s.sign)).toEqual(["unserved-path"]);
    // The suspect part's example is its own route's.
    expect(parts[1]?.exampleAttempt?.routeId).toBe(DEEPSEEK);
    expect(parts[1]?.example).toBe(`dropped \`tools\` on ${DEEPSEEK}`);
  });

  it("keeps a defect whole when every route shows the sign, and leaves a clean one alone", () => {
    const d = defect(PORTKEY, "dropped `tools.name`", [DEEPSEEK]);
    const clean = defect(PORTKEY, "dropped `tools.strict`", [OLLAMA]);
    const [audited] = auditHeadline(
      [head(PORTKEY, [d, clean])],
      [],
      new Map([doubled(d.evidence[0]?.attemptId ?? 0)]),
    );
    expect(audited?.defects.map((x) => [x.title, isRigSuspect(x)])).toEqual([
      ["dropped `tools.name`", true],
      ["dropped `tools.strict`", false],
    ]);
  });

  it("withholds a suspect from the headline and lists it with its sign in the rig suspects section", () => {
    const d = defect(PORTKEY, "dropped `tools.name`", [DEEPSEEK]);
    const clean = defect(PORTKEY, "dropped `tools.strict`", [OLLAMA]);
    const heads = auditHeadline(
      [head(PORTKEY, [d, clean])],
      [],
      new Map([doubled(d.evidence[0]?.attemptId ?? 0)]),
    );
    const headline = renderHeadline(heads).join("\n");
    expect(headline).toContain("dropped `tools.strict`");
    expect(headline).not.toContain("dropped `tools.name`");
    expect(headline).toContain("1 distinct silent defect (1 major) · 1 rig suspect held back");
    const section = renderRigSuspects(heads).join("\n");
    expect(section).toContain("## Rig suspects");
    expect(section).toContain("- `unserved-path`: ");
    expect(section).toMatch(
      /\| major \| dropped `tools.name` \| portkey@1\.15\.2 \| 2 \| openai-chat->openai-chat@deepseek · ns\+s \| `unserved-path`: attempt forwarded to \/v1\/v1\/chat\/completions/,
    );
    expect(
      renderRigSuspects(auditHeadline([head(PORTKEY, [clean])], [], new Map())).join("\n"),
    ).toContain("The audit found no sign of the rig on any defect");
  });

  it("lists a suspect several columns show once, with its columns", () => {
    const a = defect(PORTKEY, "dropped `tools.name`", [DEEPSEEK]);
    const b = defect(`${PORTKEY}+locked`, "dropped `tools.name`", [DEEPSEEK]);
    const heads = auditHeadline(
      [head(PORTKEY, [a]), head(`${PORTKEY}+locked`, [b])],
      [],
      new Map([doubled(a.evidence[0]?.attemptId ?? 0), doubled(b.evidence[0]?.attemptId ?? 0)]),
    );
    const rows = renderRigSuspects(heads).filter((l) => l.startsWith("| major"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`| ${PORTKEY}, ${PORTKEY}+locked | 4 |`);
  });

  it("reads no bytes it was not given: without exchanges only the signs of stored cells fire", () => {
    const d = defect(PORTKEY, "dropped `tools.name`", [DEEPSEEK]);
    const [audited] = auditHeadline([head(PORTKEY, [d])], [], new Map());
    expect(audited?.defects.some(isRigSuspect)).toBe(false);
  });
});
