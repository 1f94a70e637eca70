/**
 * Provider key shapes: strings that are a credential by their look alone, found anywhere in
 * text (a header, a path, a query value, a body, a log line). Keys with no shape of their own
 * (Mistral's and Azure's bare 32 characters, an AWS secret on its own) are found by the name
 * they ride under (credential-names.ts) or because the process's environment holds them.
 *
 * The table is ours, built from each vendor's documented token format (one reference a row),
 * not taken from a catalogue: the maintained ones are code or another regex dialect. Why
 * each did not fit: docs/mock.md, "Which key shapes, and why a table of our own".
 */

/**
 * One row per shape, with a made-up example of it (the tests plant each everywhere a secret
 * can stand and find it redacted). `prefix` is what the shape starts with (or, for shapes
 * known by what stands before them, that context): the one scan that rules out most text
 * before the shapes run is made of them. `context`, where given, is text the example is a
 * secret only inside (`{}` stands for the example): an AWS secret after its name, a
 * password in a URL's userinfo, a token after `Bearer`. Order matters where shapes overlap:
 * Anthropic's is tried before the generic `sk-` one, so one key becomes one tag, not two.
 */
export const KEY_SHAPE_TABLE: readonly KeyShape[] = [
  {
    provider: "Anthropic",
    example: "sk-ant-api03-AnthropicEXAMPLEkey0001",
    shape: /sk-ant-[A-Za-z0-9_-]{8,}/g,
    prefix: "sk-",
    see: "https://docs.anthropic.com/en/api/overview#authentication",
  },
  {
    // Also DeepSeek, Moonshot, Langfuse's secret keys (`sk-lf-`) and OpenRouter (`sk-or-v1-`),
    // which use OpenAI's prefix.
    provider: "OpenAI (user, project, service-account and admin keys)",
    example: "sk-proj-OpenAIprojectEXAMPLEkey0002",
    shape: /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g,
    prefix: "sk-",
    see: "https://platform.openai.com/docs/api-reference/authentication",
  },
  {
    provider: "Google API key",
    example: "AIzaSyGoogleEXAMPLEkey000000000003",
    shape: /AIza[0-9A-Za-z_-]{20,}/g,
    prefix: "AIza",
    see: "https://cloud.google.com/docs/authentication/api-keys",
  },
  {
    provider: "Google OAuth access token",
    example: "ya29.GoogleOAuthEXAMPLEtoken0004",
    shape: /ya29\.[0-9A-Za-z_-]{20,}/g,
    prefix: "ya29\\.",
    see: "https://developers.google.com/identity/protocols/oauth2",
  },
  {
    provider: "xAI",
    example: "xai-xAIgrokEXAMPLEkey00000000005",
    shape: /xai-[A-Za-z0-9]{20,}/g,
    prefix: "xai-",
    see: "https://docs.x.ai/docs/api-reference#authentication",
  },
  {
    provider: "Groq",
    example: "gsk_GroqCloudEXAMPLEkey0000000006",
    shape: /gsk_[A-Za-z0-9]{20,}/g,
    prefix: "gsk_",
    see: "https://console.groq.com/docs/api-keys",
  },
  {
    provider: "Hugging Face",
    example: "hf_HuggingFaceEXAMPLEtoken00000000007",
    shape: /hf_[A-Za-z0-9]{30,}/g,
    prefix: "hf_",
    see: "https://huggingface.co/docs/hub/security-tokens",
  },
  {
    provider: "Replicate",
    example: "r8_ReplicateEXAMPLEtoken0000000000008",
    shape: /r8_[A-Za-z0-9]{30,}/g,
    prefix: "r8_",
    see: "https://replicate.com/docs/topics/security/api-tokens",
  },
  {
    provider: "Perplexity",
    example: "pplx-PerplexityEXAMPLEkey00000000000009",
    shape: /pplx-[A-Za-z0-9]{32,}/g,
    prefix: "pplx-",
    see: "https://docs.perplexity.ai/guides/getting-started",
  },
  {
    provider: "LangSmith (personal access token, service key)",
    example: "lsv2_pt_LangSmithEXAMPLE0000000010_0123456789",
    shape: /lsv2_(?:pt|sk)_[A-Za-z0-9_]{20,}/g,
    prefix: "lsv2_",
    see: "https://docs.smith.langchain.com/administration/how_to_guides/organization_management/create_account_api_key",
  },
  {
    provider: "GitHub token (classic, OAuth, user-to-server, server-to-server, refresh)",
    example: "ghp_GitHubClassicEXAMPLEtoken00000000011",
    shape: /gh[pousr]_[A-Za-z0-9]{36,}/g,
    prefix: "gh[pousr]_",
    see: "https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/",
  },
  {
    provider: "GitHub fine-grained token",
    example: "github_pat_11GitHubFineEXAMPLE_token0000000000000012",
    shape: /github_pat_[A-Za-z0-9_]{22,}/g,
    prefix: "github_pat_",
    see: "https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens",
  },
  {
    // Personal, OAuth application secret, deploy, runner, CI/CD job, trigger, feed, incoming
    // mail, agent, SCIM and feature-flag client tokens.
    provider: "GitLab token",
    example: "glpat-GitLabEXAMPLEtoken00013",
    shape: /gl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|agent|soat|ffct)-[A-Za-z0-9_.-]{20,}/g,
    prefix: "gl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|agent|soat|ffct)-",
    see: "https://docs.gitlab.com/security/tokens/#token-prefixes",
  },
  {
    provider: "npm access token",
    example: "npm_NpmRegistryEXAMPLEtoken0000000000014",
    shape: /npm_[A-Za-z0-9]{36,}/g,
    prefix: "npm_",
    see: "https://github.blog/changelog/2021-09-23-npm-has-a-new-access-token-format/",
  },
  {
    provider: "PyPI API token",
    example: "pypi-AgEIcHlwaS5vcmcPyPIEXAMPLEtoken000000000000000000000000000000000000015",
    shape: /pypi-AgE[A-Za-z0-9_-]{50,}/g,
    prefix: "pypi-",
    see: "https://pypi.org/help/#apitoken",
  },
  {
    provider: "Slack token (bot, user, app-level, workspace, refresh, configuration)",
    example: "xoxb-1234567890123-1234567890123-SlackBotEXAMPLEtoken0016",
    shape: /xox[abeprs]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}/g,
    prefix: "x(?:ox[abeprs]|app)-",
    see: "https://api.slack.com/authentication/token-types",
  },
  {
    provider: "Slack incoming webhook URL",
    example: "hooks.slack.com/services/T0SLACKEX/B0HOOKEX/SlackHookEXAMPLEsecret0017",
    context: "https://{}",
    shape: /hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{20,}/g,
    prefix: "hooks\\.",
    see: "https://api.slack.com/messaging/webhooks",
  },
  {
    provider: "Stripe secret and restricted keys",
    example: "sk_live_StripeLiveEXAMPLEkey0000018",
    shape: /[rs]k_(?:live|test)_[A-Za-z0-9]{20,}/g,
    prefix: "[rs]k_(?:live|test)_",
    see: "https://docs.stripe.com/keys",
  },
  {
    provider: "Stripe webhook signing secret",
    example: "whsec_StripeWebhookEXAMPLEsecret00019",
    shape: /whsec_[A-Za-z0-9]{24,}/g,
    prefix: "whsec_",
    see: "https://docs.stripe.com/webhooks#verify-official-libraries",
  },
  {
    provider: "SendGrid API key",
    example: "SG.SendGridEXAMPLEkeyid20.SendGridEXAMPLEsecret0000000000000000000020",
    shape: /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/g,
    prefix: "SG\\.",
    see: "https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys",
  },
  {
    provider: "AWS access key id",
    example: "AKIAAWSIDEXAMPLE0021",
    shape: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/g,
    prefix: "A[BCKS][CI]A",
    see: "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids",
  },
  {
    // A secret key has no prefix: it is found where a name says what it is. The spaces around
    // `=` are bounded: unbounded, each character of a long run of spaces was read again
    // for every one after it.
    provider: "AWS secret access key, after its name",
    example: "AwsSecretEXAMPLEkey000000000000000/00+22",
    context: "aws_secret_access_key = {}",
    shape:
      /(?<=(?:[Ss]ecret_?[Aa]ccess_?[Kk]ey|SECRET_ACCESS_KEY)(?:\\?["'])?\s{0,8}[:=]\s{0,8}(?:\\?["'])?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    prefix: "[Ss]ecret_?[Aa]ccess_?[Kk]ey|SECRET_ACCESS_KEY",
    see: "https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html",
  },
  {
    provider: "Langfuse-style public key",
    example: "pk-lf-LangfuseEXAMPLEpublic0023",
    shape: /pk-[A-Za-z0-9_-]{16,}/g,
    prefix: "pk-",
    see: "https://langfuse.com/docs/api",
  },
  {
    // A JWS in compact form (a JWE's first three parts too): its header is base64url JSON,
    // so it opens with `eyJ` (`{"`). Access tokens of many providers are JWTs.
    provider: "JSON Web Token",
    example:
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJnYXRlY2hlY2stZXhhbXBsZSJ9.JwtSignatureEXAMPLE0000000000000000000024",
    // A token starts where no token character stands before it: a run of `eyJ` with no dot
    // is then read once, not once per `eyJ`.
    shape: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
    prefix: "eyJ",
    see: "https://datatracker.ietf.org/doc/html/rfc7519#section-3.1",
  },
  {
    provider: "PEM private key (PKCS #8, RSA, EC, OpenSSH)",
    example:
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCPemEXAMPLEkey0025\n-----END PRIVATE KEY-----",
    // Bounded (an RSA-4096 key is about 3.2 KB) and never past the next BEGIN line: a BEGIN
    // with no END costs what lies before the next one, not the rest of the text.
    shape:
      /-----BEGIN[A-Z ]{0,20}PRIVATE KEY-----(?:(?!-----BEGIN)[\s\S]){0,16384}?-----END[A-Z ]{0,20}PRIVATE KEY-----/g,
    prefix: "-----BEGIN",
    see: "https://datatracker.ietf.org/doc/html/rfc7468#section-10",
  },
  {
    // The password of `scheme://user:password@host` (the user name is kept): a URL in any
    // text, and an absolute-form request target (`POST http://user:pw@host/...`).
    provider: "Password in a URL's userinfo",
    example: "UserinfoEXAMPLEpass-0026",
    context: "https://bob:{}@db.example.com/x",
    shape: /(?<=[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#@:[\]"'<>\\]*:)[^\s/?#@[\]"'<>\\]+(?=@)/g,
    prefix: ':\\/\\/[^\\s/?#@"]*:[^\\s/?#@"]+@',
    see: "https://datatracker.ietf.org/doc/html/rfc3986#section-3.2.1",
  },
  {
    // A bearer token quoted in text (a log line, an error message, a message's content): the
    // header of that name is redacted whole (credentials.ts); here the token after the word.
    provider: "Bearer token in text",
    example: "BearerTokenEXAMPLE.value-0027~x",
    context: "curl -H 'Authorization: Bearer {}'",
    shape: /(?<=(?:[Bb]earer|BEARER)[ \t]{1,4})[A-Za-z0-9._~+/-]{16,}=*/g,
    prefix: "(?:[Bb]earer|BEARER)[ \\t]",
    see: "https://datatracker.ietf.org/doc/html/rfc6750#section-2.1",
  },
];

/** One catalogue row: see KEY_SHAPE_TABLE. */
export interface KeyShape {
  readonly provider: string;
  readonly example: string;
  readonly context?: string;
  readonly shape: RegExp;
  readonly prefix: string;
  readonly see: string;
}

export const KEY_SHAPES: readonly RegExp[] = KEY_SHAPE_TABLE.map((row) => row.shape);

/** A prefix that ends in a separator (`sk-`, `hf_`, `ya29.`) is looked for behind one. */
const ENDS_IN_SEPARATOR = /(?:-|_|\\\.)$/;

/**
 * The rows' prefixes: those that end in a separator, by their separator, and the others.
 * Most prefixes end in a separator, and are looked for behind each `-`, `_` or `.` of the
 * text rather than tried at every character.
 */
export const KEY_PREFIX_ROWS = (() => {
  const prefixes = [...new Set(KEY_SHAPE_TABLE.map((row) => row.prefix))];
  return {
    behind: prefixes.filter((p) => ENDS_IN_SEPARATOR.test(p)),
    others: prefixes.filter((p) => !ENDS_IN_SEPARATOR.test(p)),
  };
})();

/** The prefixes that end in a separator, by that separator (`.` unescaped). */
export const SEPARATOR_PREFIXES: Readonly<Record<string, readonly string[]>> = (() => {
  const by: Record<string, string[]> = {};
  for (const p of KEY_PREFIX_ROWS.behind) {
    const separator = p.endsWith("\\.") ? "." : p.slice(-1);
    by[separator] = [...(by[separator] ?? []), p];
  }
  return by;
})();

/**
 * Every shape starts with (or follows) one of its row's prefixes: one scan rules out most text
 * before the shapes run. This expression is the plain reference; the redaction asks
 * `hasKeyPrefix` (key-shape-scan-fast.ts), which gives the same answer sooner.
 */
export const KEY_PREFIXES = new RegExp(
  [`[-_.](?<=${KEY_PREFIX_ROWS.behind.join("|")})`, ...KEY_PREFIX_ROWS.others].join("|"),
);

/**
 * Every shape in one pass, in the table's order where two start at one place: text that
 * passes the prefix scan is read once, not once a row.
 */
export const ANY_KEY_SHAPE = new RegExp(
  KEY_SHAPE_TABLE.map((row) => `(?:${row.shape.source})`).join("|"),
  "g",
);

/** The text a row's example stands in as a secret: its context, or the example alone. */
export function plantedExample(row: KeyShape): string {
  return row.context === undefined ? row.example : row.context.replace("{}", row.example);
}
