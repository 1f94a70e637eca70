import { describe, expect, it } from "vitest";
import { readRequest } from "../../dialects/request.ts";
import { buildClientRequest } from "../corpus/build.ts";
import { CANARIES } from "../corpus/canaries.ts";
import { CORPUS, probeById } from "../corpus/index.ts";
import type { Probe } from "../corpus/probe.ts";
import { KNOWN_FAILING } from "./known-failing.ts";
import { stepsOf } from "./render-upstream.ts";
import { checkCell, runSelfCheck, SELF_CHECK_MODEL, SELF_CHECK_NONCE } from "./self-check.ts";
import { TRANSLATE, type TranslationName } from "./translations.ts";

function probe(id: string): Probe {
  const found = probeById(id);
  if (!found) throw new Error(`no probe ${id}`);
  return found;
}

function translate(p: Probe, name: TranslationName, backend: Parameters<typeof checkCell>[1]) {
  const request = buildClientRequest(p, {
    nonce: SELF_CHECK_NONCE,
    mode: "non-stream",
    model: SELF_CHECK_MODEL,
  });
  return TRANSLATE[name]({
    client: p.client,
    backend,
    mode: "non-stream",
    request,
    nonce: SELF_CHECK_NONCE,
    steps: stepsOf(p.upstream),
  });
}

describe("the synthetic translations", () => {
  it("carry-all forwards no client credential; leak-all forwards them all", () => {
    const header = probe("oc-credential-authorization");
    const carried = translate(header, "carry-all", "openai-chat").forwarded[0];
    expect(JSON.stringify(carried)).not.toContain(CANARIES.authorization);
    const leaked = translate(header, "leak-all", "openai-chat").forwarded[0];
    expect(leaked?.headers.authorization).toBe(`Bearer ${CANARIES.authorization}`);
    expect(leaked?.path).toBe("/v1/v1/chat/completions");

    const body = probe("am-credential-body-api-key");
    expect(JSON.stringify(translate(body, "carry-all", "anthropic-messages"))).not.toContain(
      CANARIES.bodyApiKey,
    );
    expect(translate(body, "leak-all", "anthropic-messages").forwarded[0]?.body.api_key).toBe(
      CANARIES.bodyApiKey,
    );
  });

  it("carry-nothing forwards only the model and the nonce text", () => {
    const forwarded = translate(probe("am-tools"), "carry-nothing", "openai-chat").forwarded[0];
    const read = readRequest("openai-chat", forwarded?.body);
    expect(read.model).toBe(SELF_CHECK_MODEL);
    expect(read.tools).toEqual([]);
    expect(read.messages).toHaveLength(1);
    expect(JSON.stringify(read.messages[0]?.parts)).toContain(SELF_CHECK_NONCE);
  });

  it("serves a retry sequence to the end, one forwarded copy per attempt", () => {
    const result = translate(probe("or-retry-503-then-ok"), "carry-all", "gemini");
    expect(result.forwarded).toHaveLength(3);
    expect(result.upstreamReply?.status).toBe(200);
    expect(result.clientResponse?.body).toContain("RETRYPROBE finally");
  });
});

describe("checkCell", () => {
  it("finds nothing wrong with a working probe", () => {
    expect(checkCell(probe("am-temperature"), "openai-chat", "non-stream")).toEqual([]);
    expect(checkCell(probe("oc-reply-finish-length"), "anthropic-messages", "stream")).toEqual([]);
  });

  it("reports a checker that cannot fire: tool_choice auto is the default, so dropping it is clean", () => {
    const auto: Probe = {
      ...probe("oc-tool-choice-none"),
      id: "oc-tool-choice-auto",
      request: { tools: probe("oc-tools").request.tools, tool_choice: "auto" },
    };
    const problems = checkCell(auto, "anthropic-messages", "non-stream");
    expect(problems.map((p) => p.kind)).toEqual(["cannot-fire"]);
  });

  it("reports a field the lens never judges as undecided, naming the translation", () => {
    const typo: Probe = { ...probe("am-temperature"), field: "temprature" };
    const problems = checkCell(typo, "openai-chat", "non-stream");
    expect(problems.map((p) => p.kind)).toEqual(["undecided", "undecided", "undecided"]);
    expect(problems[0]?.detail).toMatch(/^carry-all → error: temprature/);
  });

  it("reports a probe whose request cannot be built as throwing", () => {
    const broken: Probe = { ...probe("oc-temperature"), request: { messages: [] } };
    const problems = checkCell(broken, "openai-chat", "non-stream");
    expect(problems.map((p) => p.kind)).toEqual(["throws", "throws", "throws"]);
    expect(problems[0]?.detail).toMatch(/no user text to carry the nonce/);
  });
});

describe("the corpus self-check", () => {
  it("has every probe's checker able to pass and to fire, except the listed known failures", () => {
    const report = runSelfCheck(CORPUS);
    expect(report.cells).toBeGreaterThan(CORPUS.length);
    expect(report.problems.filter((p) => p.kind === "throws")).toEqual([]);
    const unexpected = report.problems.filter((p) => !(p.probe in KNOWN_FAILING));
    expect(unexpected).toEqual([]);
    // A stale ledger entry names a probe that no longer exists.
    const ids = new Set(CORPUS.map((p) => p.id));
    expect(Object.keys(KNOWN_FAILING).filter((id) => !ids.has(id))).toEqual([]);
  }, 180_000);
});
