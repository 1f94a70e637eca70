/**
 * Provider key shapes: strings that are a credential by their look alone, found anywhere in
 * text (a header, a path, a query value, a body, a log line). Keys with no shape of their own
 * (Mistral's and Azure's bare 32 characters, an AWS secret on its own) are found by the name
 * they ride under (credential-names.ts) or because the process's environment holds them.
 */

/**
 * One row per provider shape, with a made-up example of it (the tests redact each). The AWS
 * secret's example is redacted only after its name (`aws_secret_access_key = ...`, also with
 * the name's quotes escaped, as inside a tool call's arguments: `\"aws_secret_access_key\":\"`).
 * Order matters where shapes overlap: Anthropic's is tried before the generic `sk-` one, so one
 * key becomes one tag, not two.
 */
export const KEY_SHAPE_TABLE = [
  {
    provider: "Anthropic",
    example: "sk-ant-api03-EXAMPLEexampleEXAMPLE0000",
    shape: /sk-ant-[A-Za-z0-9_-]{8,}/g,
    see: "https://docs.anthropic.com/en/api/overview#authentication",
  },
  {
    // Also DeepSeek, Moonshot and OpenRouter (`sk-or-v1-`), which use OpenAI's prefix.
    provider: "OpenAI (user, project, service-account and admin keys)",
    example: "sk-proj-EXAMPLEexampleEXAMPLE0000",
    shape: /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g,
    see: "https://platform.openai.com/docs/api-reference/authentication",
  },
  {
    provider: "Google API key",
    example: "AIzaSyEXAMPLEexampleEXAMPLEexample000",
    shape: /AIza[0-9A-Za-z_-]{20,}/g,
    see: "https://cloud.google.com/docs/authentication/api-keys",
  },
  {
    provider: "Google OAuth access token",
    example: "ya29.EXAMPLEexampleEXAMPLEexample",
    shape: /ya29\.[0-9A-Za-z_-]{20,}/g,
    see: "https://developers.google.com/identity/protocols/oauth2",
  },
  {
    provider: "xAI",
    example: "xai-EXAMPLEexampleEXAMPLEexample0000",
    shape: /xai-[A-Za-z0-9]{20,}/g,
    see: "https://docs.x.ai/docs/api-reference#authentication",
  },
  {
    provider: "Groq",
    example: "gsk_EXAMPLEexampleEXAMPLEexample0000",
    shape: /gsk_[A-Za-z0-9]{20,}/g,
    see: "https://console.groq.com/docs/api-keys",
  },
  {
    provider: "Hugging Face",
    example: "hf_EXAMPLEexampleEXAMPLEexampleEXAMP",
    shape: /hf_[A-Za-z0-9]{30,}/g,
    see: "https://huggingface.co/docs/hub/security-tokens",
  },
  {
    provider: "GitHub token (classic, OAuth, user-to-server, server-to-server, refresh)",
    example: "ghp_EXAMPLEexampleEXAMPLEexampleEXAMPLE0",
    shape: /gh[pousr]_[A-Za-z0-9]{36,}/g,
    see: "https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/",
  },
  {
    provider: "GitHub fine-grained token",
    example: "github_pat_EXAMPLEexampleEXAMPLE_example0000",
    shape: /github_pat_[A-Za-z0-9_]{22,}/g,
    see: "https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens",
  },
  {
    provider: "AWS access key id",
    example: "AKIAEXAMPLEEXAMPLE00",
    shape: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/g,
    see: "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids",
  },
  {
    // A secret key has no prefix: it is found where a name says what it is.
    provider: "AWS secret access key, after its name",
    example: "EXAMPLEexampleEXAMPLEexample/EXAMPLE+000",
    shape:
      /(?<=(?:[Ss]ecret_?[Aa]ccess_?[Kk]ey|SECRET_ACCESS_KEY)(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    see: "https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html",
  },
  {
    provider: "Langfuse-style public key",
    example: "pk-lf-EXAMPLEexampleEXAMPLE",
    shape: /pk-[A-Za-z0-9_-]{16,}/g,
    see: "https://langfuse.com/docs/api",
  },
] as const;

export const KEY_SHAPES: readonly RegExp[] = KEY_SHAPE_TABLE.map((row) => row.shape);

/**
 * Every shape starts with (or, for the AWS secret, follows) one of these: one scan rules out
 * most text before the shapes run one by one.
 */
export const KEY_PREFIXES =
  /sk-|AIza|ya29\.|xai-|gsk_|hf_|gh[pousr]_|github_pat_|A[BCKS][CI]A|[Ss]ecret_?[Aa]ccess_?[Kk]ey|SECRET_ACCESS_KEY|pk-/;
