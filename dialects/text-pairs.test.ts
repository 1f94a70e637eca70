import { describe, expect, it } from "vitest";
import { redactBody } from "./body-redaction.ts";
import { isCredentialName } from "./credential-names.ts";
import { redactQuery } from "./credential-url.ts";
import { redactionTag } from "./credentials.ts";

const PASSWORD = "hunter2-Correct-Horse";
const OPENAI = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx";

describe("credential names an outside hunt found missed", () => {
  it("count acronyms, `passWord` and lists of credentials, and still not token counts", () => {
    for (const name of [
      "DBPassword",
      "APIToken",
      "AWSSecretKey",
      "XApiKey",
      "passWord",
      "apiKeys",
      "passwords",
      "cookies",
      "X-DBPassword",
    ]) {
      expect(isCredentialName(name), name).toBe(true);
    }
    for (const name of ["max_tokens", "x-ratelimit-remaining-tokens", "author", "DBName"]) {
      expect(isCredentialName(name), name).toBe(false);
    }
  });
});

describe("bodies no parse can read", () => {
  it("have a credential-named value redacted where it stands: cut short, with a BOM, a trailing comma", () => {
    for (const raw of [
      `{"model":"m","password":"${PASSWORD}","messages":[`,
      `\ufeff{"model":"m","password":"${PASSWORD}"}`,
      `{"model":"m","password":"${PASSWORD}",}`,
      `{"model":"m","pwd":"4711",}`,
    ]) {
      const out = redactBody(raw);
      expect(out, raw).not.toContain(PASSWORD);
      expect(out, raw).not.toContain("4711");
      expect(out.replace(/"\[REDACTED:[0-9a-f]{8}\]"/, '"X"'), raw).toBe(
        raw.replace(/"(hunter2-Correct-Horse|4711)"/, '"X"'),
      );
    }
  });

  it("an SSE event whose JSON spans several data: lines", () => {
    const raw = `data: {\ndata:   "api_key": "abc1",\ndata:   "note": "${OPENAI}"\ndata: }\n\ndata: [DONE]\n\n`;
    const out = redactBody(raw);
    expect(out).toBe(
      raw.replace('"abc1"', `"${redactionTag("abc1")}"`).replace(OPENAI, redactionTag(OPENAI)),
    );
  });

  it("a form body, and a multipart part named like a credential", () => {
    expect(redactBody(`model=m&password=${PASSWORD}`)).toBe(
      `model=m&password=${redactionTag(PASSWORD)}`,
    );
    const multipart = [
      "--b",
      'Content-Disposition: form-data; name="model"',
      "",
      "m",
      "--b",
      'Content-Disposition: form-data; name="password"',
      "",
      PASSWORD,
      "--b--",
      "",
    ].join("\r\n");
    expect(redactBody(multipart)).toBe(multipart.replace(PASSWORD, redactionTag(PASSWORD)));
    // An HTML page's login form names a field the same way; its text is no part's value.
    const page = '<form>\n<input name="password">\n\n<p>Sign in again</p>\n</form>';
    expect(redactBody(page)).toBe(page);
  });
});

describe("values that are not one string", () => {
  it("under a credential's name: a list, an object, at any depth", () => {
    const raw = JSON.stringify({
      model: "m",
      passwords: [PASSWORD, "pw"],
      credentials: { user: "ada", nested: { pass: "x1" } },
      usage: { total_tokens: 12 },
    });
    const out = JSON.parse(redactBody(raw));
    expect(out).toEqual({
      model: "m",
      passwords: [redactionTag(PASSWORD), redactionTag("pw")],
      credentials: { user: redactionTag("ada"), nested: { pass: redactionTag("x1") } },
      usage: { total_tokens: 12 },
    });
  });
});

it("a key shape as a query parameter's name", () => {
  expect(redactQuery(`${OPENAI}=1&a=2`)).toBe(`${redactionTag(OPENAI)}=1&a=2`);
});
