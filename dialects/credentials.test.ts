import { describe, expect, it } from "vitest";
import { redactBody } from "./body-redaction.ts";
import { CREDENTIAL_PAIRS, CREDENTIAL_WORDS } from "./credential-names.ts";
import { redactPath, redactQuery, redactRequestTarget } from "./credential-url.ts";
import {
  CREDENTIAL_BODY_KEYS,
  CREDENTIAL_HEADERS,
  CREDENTIAL_NAME_PARTS,
  credentialValuesInJson,
  isRedactionTag,
  KEY_SHAPE_TABLE,
  recordedHeaderPairs,
  redactCredentialValue,
  redactHeaderPairs,
  redactionTag,
  redactJson,
  redactText,
  refreshEnvironmentSecrets,
} from "./credentials.ts";
import { plantedExample } from "./key-shapes.ts";

const OPENAI = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx";
const ANTHROPIC = "sk-ant-api03-AbCdEfGhIjKlMnOp";
const GOOGLE = "AIzaSyA-1234567890abcdefghijk";

describe("redaction tags", () => {
  it("are the first 8 hex of sha256, the same for the same secret", () => {
    // sha256("abc") = ba7816bf...
    expect(redactionTag("abc")).toBe("[REDACTED:ba7816bf]");
    expect(redactionTag(OPENAI)).toBe(redactionTag(OPENAI));
    expect(redactionTag(OPENAI)).not.toBe(redactionTag(ANTHROPIC));
    expect(isRedactionTag(redactionTag("x"))).toBe(true);
    expect(isRedactionTag("[REDACTED:xyz]")).toBe(false);
  });
});

describe("redactText", () => {
  it("replaces every key shape, an Anthropic key as one tag", () => {
    const out = redactText(`a ${OPENAI} b ${ANTHROPIC} c ${GOOGLE} d gsk_${"a".repeat(24)}`);
    expect(out).toBe(
      `a ${redactionTag(OPENAI)} b ${redactionTag(ANTHROPIC)} c ${redactionTag(GOOGLE)} d ${redactionTag(`gsk_${"a".repeat(24)}`)}`,
    );
  });

  it("redacts every provider's example, so each shape passes the quick prefix scan too", () => {
    for (const row of KEY_SHAPE_TABLE) {
      const text = `x ${plantedExample(row)} y`;
      expect(redactText(text), row.provider).toBe(
        text.replace(row.example, redactionTag(row.example)),
      );
    }
  });

  it("replaces extra secrets of 6+ characters and leaves short ones and plain text alone", () => {
    expect(redactText("token hunter2 and abc", ["hunter2", "abc"])).toBe(
      `token ${redactionTag("hunter2")} and abc`,
    );
    expect(redactText("sk-short")).toBe("sk-short");
  });
});

describe("headers", () => {
  it("keeps names, order and case; keeps the auth scheme", () => {
    const pairs = redactHeaderPairs([
      ["Host", "x"],
      ["Authorization", `Bearer ${OPENAI}`],
      ["x-api-key", ANTHROPIC],
      ["X-Trace", `see ${GOOGLE}`],
      ["Cookie", "session=1"],
    ]);
    expect(pairs).toEqual([
      ["Host", "x"],
      ["Authorization", `Bearer ${redactionTag(OPENAI)}`],
      ["x-api-key", redactionTag(ANTHROPIC)],
      ["X-Trace", `see ${redactionTag(GOOGLE)}`],
      ["Cookie", redactionTag("session=1")],
    ]);
    expect(redactCredentialValue("Basic dXNlcjpwYXNz")).toBe(
      `Basic ${redactionTag("dXNlcjpwYXNz")}`,
    );
  });
  it("as a record keeps them: names lower-cased, a key-shaped name redacted and its tag kept", () => {
    expect(
      recordedHeaderPairs([
        ["X-Trace", "1"],
        [GOOGLE, "1"],
        ["X-Api-Key", ANTHROPIC],
      ]),
    ).toEqual([
      ["x-trace", "1"],
      [redactionTag(GOOGLE), "1"],
      ["x-api-key", redactionTag(ANTHROPIC)],
    ]);
  });
});

describe("query strings", () => {
  it("redacts credential parameters by name, keeps order and other values", () => {
    expect(redactQuery(`alt=sse&key=${GOOGLE}&API_KEY=abc&flag`)).toBe(
      `alt=sse&key=${redactionTag(GOOGLE)}&API_KEY=${redactionTag("abc")}&flag`,
    );
    expect(redactQuery("")).toBe("");
  });

  it("survives malformed percent-encoding (a gateway's bad URL must not crash the mock)", () => {
    expect(() => redactQuery("key=%zz&x=%E0%A4%A")).not.toThrow();
    expect(redactQuery("key=%zz&x=1")).toBe(`key=${redactionTag("%zz")}&x=1`);
    expect(redactQuery("%zz=1")).toBe("%zz=1");
  });
});

describe("bodies", () => {
  it("finds credential-named values at any depth", () => {
    const body = { a: { api_key: "k1", list: [{ authorization: "Bearer t2" }] }, apiKey: 3 };
    expect(credentialValuesInJson(body)).toEqual(["k1", "t2"]);
    expect(redactJson(body)).toEqual({
      a: { api_key: redactionTag("k1"), list: [{ authorization: `Bearer ${redactionTag("t2")}` }] },
      apiKey: 3,
    });
  });

  it("redacts in place, keeping every other byte (spacing, key order) exact", () => {
    const raw = `{ "model" : "m",\n  "api_key":"secret-value-1", "note":"${OPENAI}" }`;
    expect(redactBody(raw)).toBe(
      `{ "model" : "m",\n  "api_key":"${redactionTag("secret-value-1")}", "note":"${redactionTag(OPENAI)}" }`,
    );
    const clean = '{"b":1,  "a":[2]}';
    expect(redactBody(clean)).toBe(clean);
    expect(redactBody(`not json ${OPENAI}`)).toBe(`not json ${redactionTag(OPENAI)}`);
  });

  it("catches a secret that JSON escaping changed on the wire", () => {
    const raw = '{"api_key":"pa\\u0073sword-123"}';
    const out = redactBody(raw);
    expect(out).not.toContain("password-123");
    expect(JSON.parse(out).api_key).toBe(redactionTag("password-123"));
  });

  it("catches a key-shaped string spelled with escapes, and keeps escaped text without one", () => {
    const hidden = `s\\u006b${OPENAI.slice(2)}`; // "sk-..." with its k escaped
    const raw = `{"model":"m","content":"key ${hidden} here"}`;
    const out = redactBody(raw);
    expect(JSON.stringify(JSON.parse(out))).not.toContain(OPENAI);
    expect(JSON.parse(out).content).toBe(`key ${redactionTag(OPENAI)} here`);
    // Escapes alone change nothing: Python's json.dumps escapes every non-ASCII character.
    const python = '{"content":"caf\\u00e9 task-list pk-"}';
    expect(redactBody(python)).toBe(python);
  });

  it("catches an escaped key in a stream's events, keeping every other byte", () => {
    const hidden = `s\\u006b${OPENAI.slice(2)}`;
    const sse = `event: message\ndata: {"delta":{"text":"${hidden}"}}\n\ndata: [DONE]\n\n`;
    expect(redactText(sse)).toBe(sse.replace(hidden, redactionTag(OPENAI)));
    expect(redactBody(sse)).toBe(sse.replace(hidden, redactionTag(OPENAI)));
    // An NDJSON stream (Ollama) with a key escaped letter by letter.
    const spelled = [...OPENAI].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    const ndjson = `{"message":{"content":"${spelled.join("")}"}}\n{"done":true}\n`;
    expect(redactBody(ndjson)).toBe(
      `{"message":{"content":"${redactionTag(OPENAI)}"}}\n{"done":true}\n`,
    );
  });

  it("redacts credential-named keys inside a stream's events, escaped or not", () => {
    const sse =
      'data: {"error":{"api_key":"plain-secret-9"}}\n\ndata: {"x-api-\\u006bey":"other-secret-7"}\n\n';
    const out = redactBody(sse);
    expect(out).not.toContain("plain-secret-9");
    expect(out).not.toContain("other-secret-7");
    expect(out).toContain(redactionTag("plain-secret-9"));
    expect(out).toContain(redactionTag("other-secret-7"));
    const usage = 'data: {"usage":{"input_tokens":3}}\n\n';
    expect(redactBody(usage)).toBe(usage);
  });

  it("redacts a value too short to search for in a stream's event: that line re-serialized, the others kept", () => {
    const ndjson = '{"done":false}\r\n{"password":"pw", "n": 1}\r\n: comment pw\r\n';
    expect(redactBody(ndjson)).toBe(
      `{"done":false}\r\n{"password":"${redactionTag("pw")}","n":1}\r\n: comment pw\r\n`,
    );
  });

  it("finds an extra secret that escapes spell, and leaves an escaped backslash's text alone", () => {
    const canary = "canary-value-123";
    const escaped = "data: can\\u0061ry-value-123\n";
    expect(redactText(escaped, [canary])).toBe(`data: ${redactionTag(canary)}\n`);
    // `\\u0073k-...` is a backslash, then the letters "u0073k-...": no key is spelled there.
    const literal = `{"text":"\\\\u0073k${OPENAI.slice(1)}"}`;
    expect(redactBody(literal)).toBe(literal);
  });

  it("never throws when a secret also occurs inside a number", () => {
    const raw = '{"api_key":"123456","n":1234567}';
    const out = redactBody(raw);
    expect(JSON.parse(out).api_key).toBe(redactionTag("123456"));
    expect(out).not.toMatch(/"123456"/);
  });
});

/** One of each shape the issue names, made up, as a gateway might carry them. */
const PLANTED = {
  xai: `xai-${"Q".repeat(8)}${"7".repeat(40)}`,
  huggingFace: `hf_${"Hh".repeat(17)}`,
  github: `ghp_${"G1".repeat(18)}`,
  githubFine: `github_pat_11${"A".repeat(20)}_${"b".repeat(40)}`,
  awsId: "AKIAQWERTYUIOPASDFGH",
  groq: `gsk_${"g".repeat(52)}`,
  openRouter: `sk-or-v1-${"0a".repeat(32)}`,
  deepSeek: `sk-${"d".repeat(32)}`,
  googleOauth: `ya29.${"Tok".repeat(10)}`,
};

describe("every common provider key shape", () => {
  it("is redacted anywhere in text", () => {
    for (const [name, key] of Object.entries(PLANTED)) {
      expect(redactText(`before ${key} after`), name).toBe(`before ${redactionTag(key)} after`);
    }
  });

  it("leaves text that only looks near a shape alone", () => {
    for (const text of [
      "hf_short",
      "AKIA",
      "ghp_",
      "the author wrote",
      "0123456789abcdef".repeat(3),
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe("credential names", () => {
  const MISTRAL = "Zx8Qw2Lm4Np6Rt0Vb3Hk5Jd7Fg9Sa1Ce";
  const AWS_SECRET = "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY00";

  it("redact a header's whole value, whatever the provider calls it", () => {
    const pairs = redactHeaderPairs([
      ["X-Auth-Token", MISTRAL],
      ["x-custom-password", "hunter2"],
      ["Ocp-Apim-Subscription-Key", MISTRAL],
      ["X-Author", "Ada"],
    ]);
    expect(pairs).toEqual([
      ["X-Auth-Token", redactionTag(MISTRAL)],
      ["x-custom-password", redactionTag("hunter2")],
      ["Ocp-Apim-Subscription-Key", redactionTag(MISTRAL)],
      ["X-Author", "Ada"],
    ]);
  });

  it("redact a body key's value, short or prefixless, and leave counts and look-alikes", () => {
    const raw = JSON.stringify({
      model: "m",
      password: "pw",
      client_secret: MISTRAL,
      aws_secret_access_key: AWS_SECRET,
      refreshToken: "r-e-f-r-e-s-h",
      author: "Ada Lovelace",
      max_tokens: 5,
      tokenizer: "cl100k_base",
    });
    const out = JSON.parse(redactBody(raw));
    expect(out).toEqual({
      model: "m",
      password: redactionTag("pw"),
      client_secret: redactionTag(MISTRAL),
      aws_secret_access_key: redactionTag(AWS_SECRET),
      refreshToken: redactionTag("r-e-f-r-e-s-h"),
      author: "Ada Lovelace",
      max_tokens: 5,
      tokenizer: "cl100k_base",
    });
  });

  it("find an AWS secret after its name in free text", () => {
    expect(redactText(`aws_secret_access_key=${AWS_SECRET}`)).toBe(
      `aws_secret_access_key=${redactionTag(AWS_SECRET)}`,
    );
  });

  it("find an AWS secret whose slashes a PHP client escapes (`\\/`)", () => {
    const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    const php = JSON.stringify({ content: `aws_secret_access_key=${secret}` }).replaceAll(
      "/",
      "\\/",
    );
    const out = redactBody(php);
    expect(JSON.parse(out)).toEqual({ content: `aws_secret_access_key=${redactionTag(secret)}` });
    expect(redactText(`"aws_secret_access_key": "${secret.replaceAll("/", "\\/")}"`)).toBe(
      `"aws_secret_access_key": "${redactionTag(secret)}"`,
    );
  });

  describe("inside JSON held in a string (a tool call's arguments)", () => {
    const toolCall = (args: Record<string, unknown>) =>
      JSON.stringify({
        model: "m",
        messages: [
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
    const argumentsOf = (raw: string) =>
      JSON.parse(JSON.parse(raw).messages[0].tool_calls[0].function.arguments);

    it("are found, also in an array's strings", () => {
      const parsed = JSON.parse(toolCall({ user: "ada", password: "hunter22" }));
      expect(credentialValuesInJson(parsed)).toEqual(["hunter22"]);
      expect(credentialValuesInJson([JSON.stringify({ api_key: "k9" })])).toEqual(["k9"]);
    });

    it("are redacted in place, every other byte kept", () => {
      const raw = toolCall({ user: "ada", password: "hunter22" });
      const out = redactBody(raw);
      expect(out).toBe(raw.replace("hunter22", redactionTag("hunter22")));
      expect(argumentsOf(out)).toEqual({ user: "ada", password: redactionTag("hunter22") });
    });

    it("are redacted when too short to search in text, and an AWS secret after its escaped name", () => {
      const out = redactBody(toolCall({ api_key: "k9", aws_secret_access_key: AWS_SECRET }));
      expect(out).not.toContain(AWS_SECRET);
      expect(argumentsOf(out)).toEqual({
        api_key: redactionTag("k9"),
        aws_secret_access_key: redactionTag(AWS_SECRET),
      });
      const note = JSON.stringify({
        content: JSON.stringify({ note: `aws_secret_access_key: ${AWS_SECRET}` }),
      });
      expect(redactBody(note)).not.toContain(AWS_SECRET);
    });

    it("are redacted in a stream's events", () => {
      const event = {
        choices: [
          {
            delta: {
              tool_calls: [{ function: { arguments: JSON.stringify({ pwd: "hunter22" }) } }],
            },
          },
        ],
      };
      const stream = `data: ${JSON.stringify(event)}\n\ndata: [DONE]\n\n`;
      const out = redactBody(stream);
      expect(out).toBe(stream.replace("hunter22", redactionTag("hunter22")));
    });

    it("leave no AWS secret after its name in a fragment of streamed arguments", () => {
      // A stream cuts arguments anywhere: this fragment is no JSON, only its text is scanned.
      const fragment = `{"aws_secret_access_key":"${AWS_SECRET}","reg`;
      const event = {
        choices: [{ delta: { tool_calls: [{ function: { arguments: fragment } }] } }],
      };
      const stream = `data: ${JSON.stringify(event)}\n\n`;
      expect(redactBody(stream)).toBe(stream.replace(AWS_SECRET, redactionTag(AWS_SECRET)));
    });

    it("are looked for wherever a credential name's part stands (the parse is skipped otherwise)", () => {
      const part = new RegExp(CREDENTIAL_NAME_PARTS, "i");
      const names = [
        ...CREDENTIAL_WORDS,
        ...[...CREDENTIAL_PAIRS].map((pair) => pair.replace(" ", "_")),
        ...CREDENTIAL_HEADERS,
        ...CREDENTIAL_BODY_KEYS,
        "PASSWORD",
        "clientSecret",
      ];
      for (const name of names) expect(name, name).toMatch(part);
      const spelled = JSON.stringify({ args: '{"p\\u0061ssword": "hunter22"}' });
      expect(redactBody(spelled)).not.toContain("hunter22");
    });

    it("leave arguments without a credential byte for byte", () => {
      const raw = toolCall({ city: "Paris", tokens: 3 });
      expect(redactBody(raw)).toBe(raw);
    });
  });

  it("in the environment make their values secrets everywhere", () => {
    refreshEnvironmentSecrets({
      MISTRAL_API_KEY: MISTRAL,
      AZURE_OPENAI_API_KEY: "0cca0a4e00000000000000000000c0de",
      SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
      HOME: "/home/someone",
      SHORT_TOKEN: "abc",
    });
    try {
      expect(redactText(`key ${MISTRAL} and 0cca0a4e00000000000000000000c0de`)).toBe(
        `key ${redactionTag(MISTRAL)} and ${redactionTag("0cca0a4e00000000000000000000c0de")}`,
      );
      expect(redactText("/tmp/ssh-agent.sock /home/someone abc")).toBe(
        "/tmp/ssh-agent.sock /home/someone abc",
      );
      expect(redactPath(`/v1/${MISTRAL}/chat`)).toBe(`/v1/${redactionTag(MISTRAL)}/chat`);
    } finally {
      refreshEnvironmentSecrets({});
    }
  });
});

describe("URLs", () => {
  it("redacts keys in the path, also percent-encoded", () => {
    expect(redactPath(`/v1/keys/${OPENAI}/chat`)).toBe(`/v1/keys/${redactionTag(OPENAI)}/chat`);
    const encoded = OPENAI.replaceAll("-", "%2D");
    expect(redactPath(`/v1/${encoded}`)).toBe(`/v1/${redactionTag(OPENAI)}`);
    expect(redactPath("/v1/chat%20completions")).toBe("/v1/chat%20completions");
  });

  it("decodes query values before looking for keys, and redacts credential-named parameters", () => {
    const encoded = encodeURIComponent(`Bearer ${PLANTED.github}`);
    expect(redactQuery(`q=${encoded}&access_token=abc%2Bdef&x-goog-api-key=z`)).toBe(
      `q=Bearer%20${redactionTag(PLANTED.github)}&access_token=${redactionTag("abc+def")}&x-goog-api-key=${redactionTag("z")}`,
    );
    expect(redactQuery("q=hello%20world+again")).toBe("q=hello%20world+again");
  });

  it("redacts path and query of a request target", () => {
    expect(redactRequestTarget(`/p/${PLANTED.xai}?key=${GOOGLE}`)).toBe(
      `/p/${redactionTag(PLANTED.xai)}?key=${redactionTag(GOOGLE)}`,
    );
  });
});

describe("a body nested ten thousand levels deep", () => {
  const deep = (inner: string) => `${'{"a":'.repeat(10_000)}${inner}${"}".repeat(10_000)}`;

  it("is walked without overflowing the stack", () => {
    const raw = deep(`{"api_key":"deep-secret-1","n":[1,2]}`);
    const parsed = JSON.parse(raw);
    expect(credentialValuesInJson(parsed)).toEqual(["deep-secret-1"]);
    const out = redactBody(raw);
    expect(out).toBe(deep(`{"api_key":"${redactionTag("deep-secret-1")}","n":[1,2]}`));
    const walked = JSON.stringify(redactJson(JSON.parse('{"x":[{"token":"t0k3n-value"}]}')));
    expect(walked).toBe(`{"x":[{"token":"${redactionTag("t0k3n-value")}"}]}`);
  });

  it("is re-serialized when a short credential forces the structural pass", () => {
    const out = redactBody(deep(`{"password":"pw"}`));
    expect(out).toBe(deep(`{"password":"${redactionTag("pw")}"}`));
  });
});
