/**
 * The environment a gateway runs in: an allowlist, never the caller's whole environment,
 * so no provider key of the user's shell can reach a gateway (and from there the mock,
 * where a leak check would blame the gateway for our own carelessness). `HOME` and the XDG
 * folders point at the run's work folder so configs are read from there, never from the
 * user's home.
 */
import { join } from "node:path";

/** Passed through unchanged when set: what a process needs to find binaries and format text. */
const PASS_THROUGH = [
  "PATH",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "TERM",
  "SHELL",
] as const;

/**
 * Names that look like credentials or that reroute traffic. Checked even on variables an
 * adapter adds itself, so a recipe cannot smuggle a real key in by mistake.
 */
const CREDENTIAL_NAME =
  /(API_?KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|ACCESS_KEY|PRIVATE_KEY|AUTH)(_|$)|^(OPENAI|ANTHROPIC|GEMINI|GOOGLE|AZURE|AWS|PORTKEY|COHERE|MISTRAL|GROQ|DEEPSEEK|OPENROUTER|XAI|TOGETHER|FIREWORKS|HF|HUGGINGFACE)_/i;

export function isCredentialVariable(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

export interface GatewayEnvOptions {
  /** Becomes HOME and the parent of the XDG folders. */
  workdir: string;
  /** Adapter-specific variables (config paths, ports). Credential-looking names are refused. */
  extra?: Record<string, string>;
  /**
   * Fake provider keys for gateways that read keys from the environment (GoModel reads
   * OPENAI_API_KEY). Each value must contain "gatecheck", so a real key cannot pass here.
   */
  fakeCredentials?: Record<string, string>;
  /** Where to read pass-through values from (tests inject their own). */
  from?: NodeJS.ProcessEnv;
}

export function gatewayEnv(options: GatewayEnvOptions): Record<string, string> {
  const from = options.from ?? process.env;
  const env: Record<string, string> = {};
  for (const name of PASS_THROUGH) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  env.HOME = options.workdir;
  env.USERPROFILE = options.workdir;
  env.XDG_CONFIG_HOME = join(options.workdir, ".config");
  env.XDG_DATA_HOME = join(options.workdir, ".local", "share");
  env.XDG_CACHE_HOME = join(options.workdir, ".cache");
  // The mock is on loopback; a proxy from the caller's shell must never sit in between.
  env.NO_PROXY = "127.0.0.1,localhost,::1";
  env.no_proxy = env.NO_PROXY;
  // Gateways that phone home check these; we are offline by design.
  env.DO_NOT_TRACK = "1";
  for (const [name, value] of Object.entries(options.extra ?? {})) {
    if (isCredentialVariable(name)) {
      throw new Error(`gateway env: refusing credential-like variable ${name}`);
    }
    env[name] = value;
  }
  for (const [name, value] of Object.entries(options.fakeCredentials ?? {})) {
    if (!value.includes("gatecheck")) {
      throw new Error(`gateway env: ${name} must be a gatecheck fake key (contain "gatecheck")`);
    }
    env[name] = value;
  }
  return env;
}
