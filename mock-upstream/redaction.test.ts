/**
 * No secret on disk, wherever it sits in a request: the path, a percent-encoded query, a
 * credential-named header, a gzip body, the mock's own environment.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactionTag, refreshEnvironmentSecrets } from "../dialects/credentials.ts";
import { createReplyStreamReader } from "../dialects/reply.ts";
import { startMock } from "./index.ts";
import { rawRequest } from "./test-helpers.ts";

const SECRETS = {
  xai: `xai-${"Q".repeat(8)}${"7".repeat(40)}`,
  github: `ghp_${"G1".repeat(18)}`,
  huggingFace: `hf_${"Hh".repeat(17)}`,
  authToken: "Zx8Qw2Lm4Np6Rt0Vb3Hk5Jd7Fg9Sa1Ce",
  password: "correct horse battery staple",
  awsId: "AKIAQWERTYUIOPASDFGH",
  awsSecret: "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY00",
  groq: `gsk_${"g".repeat(52)}`,
  shortPassword: "pw",
  /** Prefixless (Mistral's shape): only the environment says it is a key. */
  fromEnvironment: "Mq3Zr8Tp1Wv6Yx0Bn5Kc2Hd7Jf4Lg9Sa",
};

const dir = mkdtempSync(join(tmpdir(), "gatecheck-redaction-"));
beforeAll(() => {
  process.env.GATECHECK_TEST_MISTRAL_API_KEY = SECRETS.fromEnvironment;
  refreshEnvironmentSecrets();
});
afterAll(() => {
  delete process.env.GATECHECK_TEST_MISTRAL_API_KEY;
  refreshEnvironmentSecrets();
  rmSync(dir, { recursive: true, force: true });
});

describe("no secret in the record file", () => {
  it("in the path, an encoded query, credential-named headers, a gzip body or the environment", async () => {
    const file = join(dir, "records.jsonl");
    const mock = await startMock({ recordFile: file });
    const encoded = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("");
    const path = `/v1/keys/${SECRETS.xai}/${encoded(SECRETS.github)}/chat/completions`;
    const query = `q=${encodeURIComponent(`token ${SECRETS.huggingFace}`)}&note=${SECRETS.fromEnvironment}`;
    await rawRequest(mock.url, {
      path: `${path}?${query}`,
      headers: { "X-Auth-Token": SECRETS.authToken, "x-custom-password": SECRETS.password },
      body: JSON.stringify({ model: "m", messages: [], user: SECRETS.fromEnvironment }),
    });
    const gzipped = gzipSync(
      JSON.stringify({
        model: "m",
        messages: [{ role: "user", content: `aws_secret_access_key=${SECRETS.awsSecret}` }],
        metadata: { id: SECRETS.awsId, password: SECRETS.shortPassword, other: SECRETS.groq },
      }),
    );
    await rawRequest(mock.url, {
      path: "/v1/chat/completions",
      headers: { "content-encoding": "gzip" },
      body: gzipped,
    });
    const records = mock.records();
    await mock.close();
    const disk = readFileSync(file, "utf8");
    expect(disk.trimEnd().split("\n")).toHaveLength(2);
    const listed = JSON.stringify(records);
    for (const [name, secret] of Object.entries(SECRETS)) {
      if (name === "shortPassword") continue; // two letters: looked for by its key below
      expect(disk, name).not.toContain(secret);
      expect(listed, name).not.toContain(secret);
    }
    const [first, second] = disk
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(first.request.path).toBe(
      `/v1/keys/${redactionTag(SECRETS.xai)}/${redactionTag(SECRETS.github)}/chat/completions` +
        `?q=token%20${redactionTag(SECRETS.huggingFace)}&note=${redactionTag(SECRETS.fromEnvironment)}`,
    );
    expect(first.request.headers).toContainEqual(["x-auth-token", redactionTag(SECRETS.authToken)]);
    expect(JSON.parse(first.request.body.data).user).toBe(redactionTag(SECRETS.fromEnvironment));
    // The gzip body is stored compressed again from its redacted text.
    expect(second.request.body.encoding).toBe("base64");
    const decoded = JSON.parse(
      gunzipSync(Buffer.from(second.request.body.data, "base64")).toString(),
    );
    expect(decoded.metadata).toEqual({
      id: redactionTag(SECRETS.awsId),
      password: redactionTag(SECRETS.shortPassword),
      other: redactionTag(SECRETS.groq),
    });
    expect(decoded.messages[0].content).toBe(
      `aws_secret_access_key=${redactionTag(SECRETS.awsSecret)}`,
    );
  });
  it("in a tool call's arguments (JSON inside a string) and behind a PHP client's `\\/`", async () => {
    const file = join(dir, "tool-records.jsonl");
    const mock = await startMock({ recordFile: file });
    const slashed = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    const args = { user: "ada", password: SECRETS.password, api_key: SECRETS.shortPassword };
    const body = JSON.stringify({
      model: "m",
      messages: [
        { role: "user", content: `aws_secret_access_key=${slashed}` },
        {
          role: "assistant",
          tool_calls: [
            {
              id: "c1",
              type: "function",
              function: { name: "login", arguments: JSON.stringify(args) },
            },
          ],
        },
      ],
    });
    await rawRequest(mock.url, { path: "/v1/chat/completions", body: body.replaceAll("/", "\\/") });
    await mock.close();
    const disk = readFileSync(file, "utf8");
    const stored = JSON.parse(JSON.parse(disk).request.body.data);
    expect(stored.messages[0].content).toBe(`aws_secret_access_key=${redactionTag(slashed)}`);
    expect(JSON.parse(stored.messages[1].tool_calls[0].function.arguments)).toEqual({
      user: "ada",
      password: redactionTag(SECRETS.password),
      api_key: redactionTag(SECRETS.shortPassword),
    });
    expect(disk).not.toContain(SECRETS.password);
  });

  it("in a staged reply (JSON, a stream's events, gzip) and in an error that quotes the request", async () => {
    const file = join(dir, "reply-records.jsonl");
    const mock = await startMock({ recordFile: file });
    const json = `Incorrect API key provided: ${SECRETS.xai}`;
    mock.stage({ reply: { status: 401, body: { json: { error: { message: json } } } } });
    mock.stage({
      reply: {
        body: {
          sse: [{ data: { echo: { api_key: SECRETS.shortPassword, other: SECRETS.groq } } }],
        },
      },
    });
    mock.stage({
      reply: { body: { json: { note: SECRETS.github } }, wire: { gzip: "always" } },
    });
    const chat = { path: "/v1/chat/completions", body: JSON.stringify({ model: "m" }) };
    const answers = [
      await rawRequest(mock.url, chat),
      await rawRequest(mock.url, chat),
      await rawRequest(mock.url, chat),
      await rawRequest(mock.url, {
        ...chat,
        headers: { "content-type": `text/${SECRETS.huggingFace}` },
      }),
    ];
    await mock.close();
    // The client gets the staged bytes as staged; only the record is redacted.
    expect(answers[0]?.body.toString()).toContain(SECRETS.xai);
    const disk = readFileSync(file, "utf8");
    for (const secret of [SECRETS.xai, SECRETS.groq, SECRETS.github, SECRETS.huggingFace]) {
      expect(disk).not.toContain(secret);
    }
    const replies = disk
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line).reply);
    expect(JSON.parse(replies[0].body.data).error.message).toBe(
      `Incorrect API key provided: ${redactionTag(SECRETS.xai)}`,
    );
    expect(replies[1].body.data).toContain(`"api_key":"${redactionTag(SECRETS.shortPassword)}"`);
    const gzipped = gunzipSync(Buffer.from(replies[2].body.data, "base64")).toString();
    expect(JSON.parse(gzipped)).toEqual({ note: redactionTag(SECRETS.github) });
    expect(replies[3].status).toBe(400);
    expect(replies[3].body.data).toContain(redactionTag(SECRETS.huggingFace));
  });

  it("in a staged stream whose events cut a key and a tool call's password apart", async () => {
    const file = join(dir, "split-records.jsonl");
    const mock = await startMock({ recordFile: file });
    mock.stage({
      reply: {
        body: {
          canonical: {
            parts: [
              { type: "text", text: `Use ${SECRETS.groq} for now.` },
              {
                type: "tool-call",
                id: "call_1",
                name: "login",
                arguments: JSON.stringify({ user: "ada", password: SECRETS.password }),
              },
            ],
          },
          stream: true,
          plan: { textChunkSize: 6, toolArgumentChunkSize: 5 },
        },
      },
    });
    const body = JSON.stringify({ model: "m", stream: true });
    const answer = await rawRequest(mock.url, { path: "/v1/chat/completions", body });
    await mock.close();
    // The client reads the stream as staged; no line of it held either secret whole.
    expect(answer.body.toString()).not.toContain(SECRETS.groq);
    // What a reader of the recorded stream assembles holds each secret's tag instead.
    const reader = createReplyStreamReader("openai-chat");
    reader.push(JSON.parse(readFileSync(file, "utf8")).reply.body.data);
    const [text, call] = reader.end().parts;
    expect(text).toMatchObject({ text: `Use ${redactionTag(SECRETS.groq)} for now.` });
    expect(JSON.parse((call as { arguments: string }).arguments)).toEqual({
      user: "ada",
      password: redactionTag(SECRETS.password),
    });
  });

  it("in a staged reply's headers, a header's name, a form body and a body cut short", async () => {
    const file = join(dir, "hunt-records.jsonl");
    const mock = await startMock({ recordFile: file });
    mock.stage({
      reply: { headers: { "set-cookie": `sid=${SECRETS.password}`, "x-debug": SECRETS.github } },
    });
    const chat = "/v1/chat/completions";
    await rawRequest(mock.url, { path: chat, body: JSON.stringify({ model: "m" }) });
    await rawRequest(mock.url, {
      path: chat,
      headers: { [SECRETS.huggingFace]: "1", "X-DBPassword": SECRETS.authToken },
      body: JSON.stringify({ model: "m" }),
    });
    await rawRequest(mock.url, {
      path: chat,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `model=m&password=${encodeURIComponent(SECRETS.password)}`,
    });
    await rawRequest(mock.url, {
      path: chat,
      body: `{"model":"m","APIToken":"${SECRETS.authToken}","messages":[`,
    });
    // JSON that is not valid UTF-8 (a Latin-1 "é"): stored as base64, redacted through its text.
    await rawRequest(mock.url, {
      path: chat,
      body: Buffer.from(`{"model":"caf\xe9","pwd":"${SECRETS.authToken}"}`, "latin1"),
    });
    const fromEndpoint = await (await fetch(`${mock.url}/__gatecheck/records`)).text();
    await mock.close();
    const disk = readFileSync(file, "utf8");
    for (const secret of [
      SECRETS.password,
      SECRETS.github,
      SECRETS.huggingFace,
      SECRETS.authToken,
    ]) {
      expect(disk).not.toContain(secret);
      expect(fromEndpoint).not.toContain(secret);
    }
    const records = disk
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records[0].reply.headers).toContainEqual([
      "set-cookie",
      redactionTag(`sid=${SECRETS.password}`),
    ]);
    expect(records[1].request.headers).toContainEqual([redactionTag(SECRETS.huggingFace), "1"]);
    expect(records[2].request.body.data).toBe(`model=m&password=${redactionTag(SECRETS.password)}`);
    expect(records[3].request.body.data).toContain(
      `"APIToken":"${redactionTag(SECRETS.authToken)}"`,
    );
    const latin1 = Buffer.from(records[4].request.body.data, "base64").toString("latin1");
    expect(latin1).toBe(`{"model":"caf\xe9","pwd":"${redactionTag(SECRETS.authToken)}"}`);
  });

  it("in a Gemini path's model, which the default reply echoes, also percent-encoded", async () => {
    const file = join(dir, "gemini-records.jsonl");
    const mock = await startMock({ recordFile: file });
    const body = JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] });
    const encoded = SECRETS.xai.replace("-", "%2D");
    for (const path of [
      `/v1beta/models/${SECRETS.xai}:generateContent`,
      `/v1beta/models/${encoded}:streamGenerateContent?alt=sse`,
    ]) {
      const answer = await rawRequest(mock.url, { path, body });
      expect(answer.body.toString()).toContain(`"modelVersion":"${redactionTag(SECRETS.xai)}"`);
    }
    await mock.close();
    const disk = readFileSync(file, "utf8");
    expect(disk).not.toContain(SECRETS.xai.slice(4));
    for (const line of disk.trimEnd().split("\n")) {
      expect(JSON.parse(line).model).toBe(redactionTag(SECRETS.xai));
    }
  });

  it("an MCP server's token, which the lens compares by its tag (docs/lens.md)", async () => {
    const file = join(dir, "mcp-records.jsonl");
    const mock = await startMock({ recordFile: file });
    const token = "mcp-oauth-MCPTOKEN-7731-abcdef";
    const url = "https://mcp.example.com/MCPPROBE";
    await rawRequest(mock.url, {
      path: "/v1/messages",
      body: JSON.stringify({
        model: "m",
        max_tokens: 8,
        messages: [{ role: "user", content: "hi" }],
        mcp_servers: [{ type: "url", name: "probe", url, authorization_token: token }],
      }),
    });
    await rawRequest(mock.url, {
      path: "/v1/responses",
      body: JSON.stringify({
        model: "m",
        input: "hi",
        tools: [
          {
            type: "mcp",
            server_label: "probe",
            server_url: url,
            authorization: token,
            headers: { Authorization: `Bearer ${token}` },
          },
        ],
      }),
    });
    await mock.close();
    const disk = readFileSync(file, "utf8");
    expect(disk).not.toContain(token);
    const [messages, responses] = disk
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(JSON.parse(line).request.body.data));
    expect(messages.mcp_servers[0].authorization_token).toBe(redactionTag(token));
    expect(responses.tools[0].authorization).toBe(redactionTag(token));
    expect(responses.tools[0].headers.Authorization).toBe(`Bearer ${redactionTag(token)}`);
  });
});
