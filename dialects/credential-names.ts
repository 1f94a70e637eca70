/**
 * Names that say their value is a credential: a header (`x-auth-token`), a body or query key
 * (`client_secret`, `password`), an environment variable (`MISTRAL_API_KEY`). A name is cut
 * into words (separators and camelCase), so `author`, `max_tokens` and `tokenizer` are not
 * credentials while `access_token`, `apiKey` and `AWS_SECRET_ACCESS_KEY` are.
 */

/** A word that alone makes a name a credential's. */
export const CREDENTIAL_WORDS: ReadonlySet<string> = new Set([
  "token",
  "secret",
  "secrets",
  "password",
  "passwords",
  "passwd",
  "pwd",
  "passphrase",
  "credential",
  "credentials",
  "authorization",
  "auth",
  "cookie",
  "cookies",
  "bearer",
  "apikey",
  "apikeys",
]);

/**
 * Two words in a row that make a name a credential's (`api_key`, `x-api-key`, `accessKey`,
 * `passWord`). Plurals are listed where a list of credentials is still credentials; not
 * `tokens`, which in this trade counts them (`max_tokens`, `x-ratelimit-remaining-tokens`).
 */
export const CREDENTIAL_PAIRS: ReadonlySet<string> = new Set([
  "api key",
  "api keys",
  "access key",
  "access keys",
  "private key",
  "private keys",
  "subscription key",
  "pass word",
]);

/**
 * The words of a name: `xGoogApiKey`, `x-goog-api-key` and `X_GOOG_API_KEY` alike, and an
 * acronym ends where a capitalised word starts (`DBPassword`, `APIToken`, `XApiKey`).
 */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

function judge(name: string): boolean {
  const w = words(name);
  for (let i = 0; i < w.length; i++) {
    if (CREDENTIAL_WORDS.has(w[i] ?? "")) return true;
    if (i > 0 && CREDENTIAL_PAIRS.has(`${w[i - 1]} ${w[i]}`)) return true;
  }
  return false;
}

/**
 * Names already judged: a body's keys repeat from request to request (`model`, `messages`,
 * `role`, `content`), and the mock judges every key of every body it records. Bounded in
 * count and key length, since keys come from traffic.
 */
const judged = new Map<string, boolean>();
const CACHE_LIMIT = 4096;
const CACHED_NAME_MAX_LENGTH = 64;

export function isCredentialName(name: string): boolean {
  let known = judged.get(name);
  if (known === undefined) {
    known = judge(name);
    if (name.length <= CACHED_NAME_MAX_LENGTH) {
      if (judged.size >= CACHE_LIMIT) judged.clear();
      judged.set(name, known);
    }
  }
  return known;
}

/** Shorter values are not searched for in text: too likely to stand for something else. */
export const MIN_SECRET_LENGTH = 8;

/**
 * The values of the environment's credential-named variables (`OPENAI_API_KEY`,
 * `AWS_SECRET_ACCESS_KEY`, `HF_TOKEN`, ...): a key in the shell that runs gatecheck is
 * redacted wherever it shows up, shaped or not. Paths (`SSH_AUTH_SOCK`) and values with
 * spaces are not secrets.
 */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_SECRET_LENGTH) continue;
    if (value.startsWith("/") || /\s/.test(value)) continue;
    if (isCredentialName(name)) found.add(value);
  }
  return [...found];
}
