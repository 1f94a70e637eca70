import { describe, expect, it } from "vitest";
import { redactionTag } from "../../dialects/credentials.ts";
import type { ExchangeRequest } from "../exchange.ts";
import { clientCredentials, judgeCredential } from "./credential-judge.ts";
import { judgeHeader, judgePath } from "./wire-judges.ts";

function wire(path: string, headers: [string, string][] = [], body: unknown = {}): ExchangeRequest {
  return { method: "POST", path, headers, body, rawBody: JSON.stringify(body) };
}

describe("headers", () => {
  it("keeps, drops, trims, and has no equivalent off Anthropic", () => {
    const client: [string, string][] = [
      ["anthropic-beta", "a-1,b-2"],
      ["user-agent", "probe/1"],
    ];
    expect(
      judgeHeader("anthropic-beta", client, [["anthropic-beta", "b-2, a-1"]], "anthropic-messages")
        ?.verdict,
    ).toBe("preserved");
    expect(
      judgeHeader("anthropic-beta", client, [["anthropic-beta", "a-1"]], "anthropic-messages"),
    ).toMatchObject({
      verdict: "mangled",
      reason: 'headers.anthropic-beta: "a-1,b-2" → "a-1" (lost b-2)',
    });
    expect(judgeHeader("anthropic-beta", client, [], "anthropic-messages")?.verdict).toBe(
      "dropped",
    );
    expect(judgeHeader("anthropic-beta", client, [], "openai-chat")?.verdict).toBe("no-equivalent");
    expect(
      judgeHeader("user-agent", client, [["user-agent", "gw/2"]], "openai-chat"),
    ).toMatchObject({ verdict: "mangled", cause: "replaced" });
    expect(judgeHeader("idempotency-key", client, [], "openai-chat")).toBeUndefined();
  });
});

describe("path", () => {
  it("wants the backend's documented route", () => {
    expect(judgePath("/v1/messages", wire("/v1/chat/completions"), "openai-chat").verdict).toBe(
      "preserved",
    );
    expect(judgePath("/v1/messages", wire("/v1/v1/chat/completions"), "openai-chat")).toMatchObject(
      {
        verdict: "mangled",
        reason:
          'path: "/v1/messages" → "/v1/v1/chat/completions" (expected "/v1/chat/completions")',
      },
    );
    expect(
      judgePath("/v1/messages", wire("/v1beta/models/g-2:generateContent"), "gemini").verdict,
    ).toBe("preserved");
    expect(
      judgePath("/v1/messages", wire("/v1beta/models/g-2:streamGenerateContent?alt=sse"), "gemini")
        .verdict,
    ).toBe("preserved");
    // Without `alt=sse` Gemini streams a JSON array: a documented variant, served.
    expect(
      judgePath("/v1/messages", wire("/v1beta/models/g-2:streamGenerateContent"), "gemini"),
    ).toMatchObject({ verdict: "preserved" });
    expect(
      judgePath("/v1/messages", wire("/v1beta/models/g-2:streamGenerateContent?alt=json"), "gemini")
        .verdict,
    ).toBe("preserved");
    // A format the mock cannot answer and no documented stream variant names.
    expect(
      judgePath(
        "/v1/messages",
        wire("/v1beta/models/g-2:streamGenerateContent?alt=proto"),
        "gemini",
      ),
    ).toMatchObject({
      verdict: "mangled",
      cause: "missing-query",
    });
    expect(judgePath("/v1/chat/completions", wire("/api/generate"), "ollama").verdict).toBe(
      "mangled",
    );
  });
  it("wants a provider's mount of the dialect where the backend is one", () => {
    const google = {
      provider: "google",
      at: "/v1beta/openai",
      replaces: "/v1",
      see: "https://ai.google.dev/gemini-api/docs/openai",
    };
    const deepseek = {
      provider: "deepseek",
      at: "/anthropic",
      replaces: "",
      see: "https://api-docs.deepseek.com/guides/anthropic_api",
    };
    const atGoogle = wire("/v1beta/openai/chat/completions");
    expect(judgePath("/v1/chat/completions", atGoogle, "openai-chat", google)).toMatchObject({
      verdict: "preserved",
      reason:
        'path: "/v1/chat/completions" → "/v1beta/openai/chat/completions" (the openai-chat route at google\'s mount /v1beta/openai (https://ai.google.dev/gemini-api/docs/openai))',
    });
    // Without the mount the same bytes are another route; with it, OpenAI's own path is.
    expect(judgePath("/v1/chat/completions", atGoogle, "openai-chat").cause).toBe("wrong-route");
    expect(
      judgePath("/v1/chat/completions", wire("/v1/chat/completions"), "openai-chat", google),
    ).toMatchObject({ verdict: "mangled", cause: "wrong-route" });
    const atDeepseek = wire("/anthropic/v1/messages");
    expect(judgePath("/v1/messages", atDeepseek, "anthropic-messages", deepseek).verdict).toBe(
      "preserved",
    );
    expect(judgePath("/v1/messages", atDeepseek, "anthropic-messages").cause).toBe("wrong-route");
    expect(
      judgePath("/v1/messages", wire("/v1/messages"), "anthropic-messages", deepseek),
    ).toMatchObject({
      verdict: "mangled",
      reason: expect.stringContaining('expected "/anthropic/v1/messages" at deepseek\'s mount'),
    });
  });
});

describe("credentials", () => {
  const key = "sk-ant-api03-CANARYtestKEY000111";

  it("finds client credentials in headers, query and body (any depth)", () => {
    const request = wire(
      "/v1/messages?key=AIzaCANARY",
      [
        ["x-api-key", key],
        ["authorization", "Bearer tok-123456"],
      ],
      {
        api_key: "body-secret-1",
        extra_headers: { "x-api-key": "nested-secret-2" },
      },
    );
    expect(clientCredentials(request).map((c) => `${c.place}.${c.name}=${c.value}`)).toEqual([
      `header.x-api-key=${key}`,
      "header.authorization=tok-123456",
      "query.key=AIzaCANARY",
      "body.api_key=body-secret-1",
      "body.extra_headers.x-api-key=nested-secret-2",
    ]);
  });

  it("calls a credential found downstream leaked, by value or by redaction tag", () => {
    const cred = { place: "header" as const, name: "x-api-key", value: key };
    expect(
      judgeCredential(
        cred,
        [wire("/v1/chat/completions", [["authorization", "Bearer [REDACTED:0badc0de]"]])],
        [],
      ),
    ).toMatchObject({
      verdict: "preserved",
      reason: 'credentials.header.x-api-key: "sk-a…0111" → not forwarded',
    });
    expect(
      judgeCredential(
        cred,
        [wire("/v1/chat/completions", [["authorization", `Bearer ${key}`]])],
        [],
      ).verdict,
    ).toBe("leaked");
    const tagged = [
      wire("/v1/chat/completions", [["authorization", `Bearer ${redactionTag(key)}`]]),
    ];
    expect(judgeCredential(cred, tagged, [])).toMatchObject({
      verdict: "leaked",
      reason: expect.stringContaining("header authorization"),
    });
    expect(
      judgeCredential(cred, [wire(`/v1/chat?api_key=${encodeURIComponent(key)}`)], []).verdict,
    ).toBe("leaked");
    expect(judgeCredential(cred, [wire("/v1/chat", [], { extra: key })], []).reason).toContain(
      "forwarded body",
    );
  });

  it("names the surface a credential leaked through; one found nowhere is clean", () => {
    const cred = { place: "header" as const, name: "x-api-key", value: key };
    const surface = (forwarded: Parameters<typeof wire>) =>
      judgeCredential(cred, [wire(...forwarded)], []);
    expect(surface(["/v1/messages", [["x-api-key", key]]]).cause).toBe("in-auth-header");
    expect(surface(["/v1/chat", [["authorization", `Bearer ${key}`]]]).cause).toBe(
      "in-auth-header",
    );
    expect(surface(["/v1beta/m", [["x-goog-api-key", key]]]).cause).toBe("in-auth-header");
    expect(surface(["/v1/messages", [["x-forwarded-key", key]]]).cause).toBe("in-other-header");
    expect(surface([`/v1/messages?key=${key}`]).cause).toBe("in-query");
    // A later `?` is a query character (RFC 3986 §3.4): the key after it is still in the query.
    expect(surface([`/v1/messages?q=a?b&key=${key}`]).cause).toBe("in-query");
    expect(surface(["/v1/messages", [], { metadata: { k: key } }]).cause).toBe("in-body");
    const clean = surface(["/v1/messages", [["x-api-key", "sk-gateway-own-key-000"]]]);
    expect(clean).toMatchObject({ verdict: "preserved" });
    expect(clean.reason).toContain("→ not forwarded");
  });

  it("reads the body spellings of OpenAI's account headers at the top level only", () => {
    const request = wire("/v1/chat/completions", [], {
      organization: "org-CANARY123",
      project: "proj_CANARY456",
      messages: [{ role: "user", content: "hi", project: "not-a-credential" }],
    });
    expect(clientCredentials(request).map((c) => `${c.place}.${c.name}=${c.value}`)).toEqual([
      "body.organization=org-CANARY123",
      "body.project=proj_CANARY456",
    ]);
  });

  it("reads a query credential whose percent-encoding is malformed as written, without throwing", () => {
    const request = wire("/v1beta/models/m:generateContent?key=AIza%zzCANARY&alt=sse");
    expect(clientCredentials(request).map((c) => `${c.place}.${c.name}=${c.value}`)).toEqual([
      "query.key=AIza%zzCANARY",
    ]);
  });

  it("matches a recording redacted on both sides through its tag, and through planted secrets", () => {
    const recorded = { place: "header" as const, name: "x-api-key", value: redactionTag(key) };
    const forwarded = [wire("/v1/chat/completions", [["x-api-key", redactionTag(key)]])];
    expect(judgeCredential(recorded, forwarded, []).verdict).toBe("leaked");
    const raw = [wire("/v1/chat/completions", [], { key })];
    expect(judgeCredential(recorded, raw, []).verdict).toBe("preserved");
    expect(judgeCredential(recorded, raw, [key]).verdict).toBe("leaked");
  });
});
