/**
 * The contract between the sweep and every gateway under test.
 *
 * One adapter per gateway (one file each). The sweep never calls an adapter's steps by
 * hand: it calls `startGateway()` from `start.ts`, which installs (cached), writes the
 * config, launches, waits for readiness and hands back either a `RunningGateway` or a
 * `NotRun` that says why. A gateway that could not run is never silently missing.
 *
 * Lifecycle of one column (`portkey@1.15.2+locked`):
 *   parseGatewaySpec("portkey@1.15.2+locked") -> GatewaySpec
 *   adapter.install(spec, installCtx)          -> InstallResult (cached per name@version+variant)
 *   adapter.launch(launchCtx)                  -> RunningGateway (config written, ready) | throws GatewayError
 *   adapter.routes(spec)                       -> GatewayRoute[] (what the sweep may send, and how)
 *   running.stop()                             -> StopResult (group SIGTERM, SIGKILL after grace, verified gone)
 */
import type { ClientDialect, Dialect } from "../dialects/dialect.ts";
import type { CitedConfig } from "./cited.ts";

/** How a gateway is obtained (`npm`, `pypi`, `go`: installed by us into the cache; `binary`: found on PATH; `attach`: someone else runs it; `none`: no process, direct). */
export type GatewaySource = "npm" | "pypi" | "go" | "binary" | "attach" | "none";

/** One column of a sweep: a gateway at a version, optionally a named install variant. */
export interface GatewaySpec {
  name: string;
  version: string;
  /** Install variant, e.g. `locked` (dependency overrides); part of the column label. */
  variant?: string;
}

/** Context for building a route's request: where the mock is and which key the client sends. */
export interface RouteContext {
  /**
   * Base URL (no trailing slash, no `/v1`) of the mock listener serving `backend`, or the
   * listener playing a strict provider (`persona`, see GatewayRoute.persona); a provider
   * whose OpenAI-compatible API sits below the host (Google's `/v1beta/openai`) gets that
   * mount in its URL, in place of `/v1`.
   */
  mockUrl(backend: Dialect, persona?: string): string;
  /** The provider key the client sends (the sweep's credential canary). */
  apiKey: string;
}

export type RouteStatus = "works" | "fails" | "untested";

/** One way through a gateway: called in `client`, it speaks `backend` to the mock. */
export interface GatewayRoute {
  /**
   * Stable id inside the gateway, `<client>-><backend>[:<flavour>][@<persona>]`, e.g.
   * `openai-chat->anthropic-messages`, `anthropic-messages->openai-chat@deepseek`.
   */
  id: string;
  client: ClientDialect;
  backend: Dialect;
  /** Path on the gateway's base URL for non-stream requests (`/v1/chat/completions`). */
  ingressPath: string;
  /** Path for stream requests when it differs from `ingressPath`. */
  streamIngressPath?: string;
  /** Headers the client must send (routing headers, the key in the header this route expects). */
  headers(ctx: RouteContext): Record<string, string>;
  /** The model name the client sends so the gateway picks this backend (`mock,gpt-x` for CCR). */
  model(backendModel: string): string;
  /**
   * A strict provider this route's backend is (a persona of mock-upstream/personas/:
   * `deepseek`, `moonshot`, `google`, `anthropic`): the route's mock listener validates every
   * forwarded request as that provider does, and a rejection is a finding (cause
   * `strict-provider`). The gateway is configured to call that provider (its own provider
   * type where it has one) at the persona's listener.
   */
  persona?: string;
  /** client === backend through the same gateway: the control leg for blame. */
  native?: boolean;
  /**
   * What we found running it offline against the mock (see docs/gateways.md):
   * `works` answered, `fails` never reached the mock or errored every time, `untested`.
   */
  status: RouteStatus;
  /** Streaming, when it differs from `status` (Portkey's plain install: non-stream works, stream 500s). */
  streamStatus?: RouteStatus;
  /** Why a route fails or anything a reader of the matrix must know. */
  notes?: string;
}

/** A gateway that could not be installed or run, with the evidence. */
export interface NotRun {
  status: "not-run";
  /** One line a user reads in the matrix: `litellm not found on PATH`, `exited 1 before ready`. */
  reason: string;
  /** Install or run log on disk. */
  logPath?: string;
  exitCode?: number;
  /** Last lines of the log, for the report. */
  logTail?: string[];
}

export type InstallResult =
  | {
      status: "ok";
      /** Folder holding the installed package (npm) or undefined (binary, attach, none). */
      dir?: string;
      /** Version actually installed or found. */
      version?: string;
      logPath?: string;
      /** True when the cache already held it. */
      cached: boolean;
      /** Resolved versions of dependencies that matter to results (`@hono/node-server`). */
      dependencies?: Record<string, string>;
    }
  | NotRun;

export interface InstallContext {
  /** Root of the install cache (`<repo>/.gatecheck-cache/gateways` or `$GATECHECK_CACHE/gateways`). */
  cacheDir: string;
  signal?: AbortSignal;
  /** Told what is being installed and how long it took (installs take minutes, say so). */
  report?(line: string): void;
}

export interface LaunchContext {
  spec: GatewaySpec;
  /** From a successful install. */
  install: Extract<InstallResult, { status: "ok" }>;
  /** Per-run folder: config files, logs, and `HOME` of the gateway. Created if missing. */
  workdir: string;
  /** Where each backend dialect's mock listens (base URL, no trailing slash), or a persona's. */
  mockUrl(backend: Dialect, persona?: string): string;
  /** Port to listen on (127.0.0.1). Picked free by `startGateway` when not given. */
  port: number;
  /**
   * The backend model names the caller's requests will name (the sweep's mock model). A
   * recipe whose gateway decides what a request may carry from what it knows of the model
   * (LiteLLM's model map) declares these models as a user declares theirs; others ignore it.
   */
  models?: readonly string[];
  /** Deadline for readiness. */
  readyTimeoutMs?: number;
  /** Abort (e.g. SIGINT): the launch stops its child and rejects with code `interrupted`. */
  signal?: AbortSignal;
  /**
   * Where the second (fallback) target listens, when the sweep runs fallback probes on a
   * gateway whose second target is written into its config (LiteLLM's fallback model group).
   */
  fallbackMockUrl?(backend: Dialect): string;
}

export interface ExitInfo {
  exitCode?: number;
  signal?: string;
}

export interface StopResult {
  /** The process group is verified gone (always true for attach/none). */
  gone: boolean;
  /** How it ended: it was already dead, SIGTERM sufficed, or SIGKILL was needed. */
  how: "already-exited" | "sigterm" | "sigkill" | "not-owned";
  exit?: ExitInfo;
}

export interface RunningGateway {
  /** Column label: `portkey@1.15.2+locked`. */
  label: string;
  /** Base URL of the gateway (`http://127.0.0.1:PORT`), route ingress paths append to it. */
  baseUrl: string;
  /**
   * The URL its readiness was checked on at launch (any HTTP status means alive); the sweep
   * asks it again when requests stop being answered (sweep/hang-watch.ts).
   */
  readyUrl?: string;
  /** Leader PID of the gateway's process group, when we launched it. */
  pid?: number;
  logPath?: string;
  /** True when we attached to a running gateway (stop() leaves it alone). */
  attached: boolean;
  /** Set once the process has exited (crash or stop); undefined while alive. */
  exited(): ExitInfo | undefined;
  /** Resolves when the process exits, as `exited()` then says; absent where we run none. */
  whenExited?: Promise<ExitInfo>;
  /**
   * True once the process has died or begun to exit, before its exit event may have come (a
   * zombie not yet reaped; `exited()` is still undefined), and where that cannot be told;
   * false while it lives. Absent where we run none.
   */
  dying?(): boolean;
  /** Last `n` lines of the gateway's log. */
  logTail(n?: number): string[];
  /** Idempotent. */
  stop(): Promise<StopResult>;
}

/** Where a fallback route's two targets are and which key the client sends. */
export interface FallbackTargets {
  /** Base URL of the mock listener that plays the first target (fails). */
  primaryUrl(backend: Dialect): string;
  /** Base URL of the mock listener that plays the second target (answers). */
  secondaryUrl(backend: Dialect): string;
  apiKey: string;
}

/**
 * Whether and how a gateway can be pointed at two targets, the second used when the first
 * fails. Data, with the evidence: gateways without it get `not-run` fallback cells that say
 * why, never a verdict.
 */
export type FallbackSupport =
  | {
      supported: false;
      /** One line for the matrix: why no fallback cell runs on this gateway. */
      reason: string;
      /** Where the decision comes from (docs or the installed source). */
      see: string;
    }
  | {
      supported: true;
      /**
       * The statuses of the first target that the configuration below makes the gateway move
       * on: the gateway's documented default when the configuration names none.
       */
      onStatuses: readonly number[] | "any-non-2xx";
      /** Route ids where fallback is configured; absent = every route. */
      routes?: readonly string[];
      /**
       * Per-request configuration (Portkey's `x-portkey-config`): the client headers of a
       * fallback attempt, in place of the route's own.
       */
      headers?(route: GatewayRoute, targets: FallbackTargets): Record<string, string>;
      /**
       * Per-request fallback named in the body (LiteLLM's `fallbacks`): keys merged into the
       * client request; the second target itself is written into the config at launch from
       * `LaunchContext.fallbackMockUrl`.
       */
      body?(route: GatewayRoute, backendModel: string): Record<string, unknown>;
      /** One line: how the two targets are configured. */
      how: string;
      see: string;
    };

export interface GatewayAdapter {
  name: string;
  /** One line for `gateways list`. */
  description: string;
  defaultVersion: string;
  source: GatewaySource;
  /** Named install variants (`locked`) with what they change. */
  variants?: Record<string, string>;
  /** Binary looked up on PATH (source `binary`). */
  binary?: string;
  /**
   * Why gatecheck cannot install it from a registry, when it cannot (Bifrost, AxonHub). It
   * stays a column of the default sweep, `not-run` with this reason, unless the user runs
   * it themselves (`--attach NAME=URL`, or a binary on PATH).
   */
  unavailable?: string;
  install(spec: GatewaySpec, ctx: InstallContext): Promise<InstallResult>;
  /** Version read from the installed package or the binary; undefined when not installed. */
  version(spec: GatewaySpec, ctx: InstallContext): Promise<string | undefined>;
  /** Write the gateway's config into `ctx.workdir`; returns the files written (absolute paths). */
  writeConfig(ctx: LaunchContext): Promise<string[]>;
  /**
   * Everything gatecheck writes for it (config files, flags, environment, routing headers),
   * each value with the reference that says a user writes it so (cited.ts); `writeConfig`
   * and the launch write exactly this. Every gateway gatecheck installs has one (a test).
   */
  citedConfig?(ctx: LaunchContext): CitedConfig;
  /** Write config, start, wait ready. Throws GatewayError on failure (the child is gone then). */
  launch(ctx: LaunchContext): Promise<RunningGateway>;
  routes(spec: GatewaySpec): GatewayRoute[];
  /** Fallback to a second target; absent = not examined yet (cells say so, `not-run`). */
  fallback?: FallbackSupport;
  /**
   * Request slots of their own, per `--concurrency` slot, for requests that wait on a timer
   * (a staged delay, a `Retry-After` the gateway sleeps out): only for a gateway measured to
   * hold nothing while it waits. Absent or 0: they share the gateway's slots. any-llm holds a
   * database connection for every request, also one whose client gave up, and with 16 such
   * requests at once its pool ran dry and it answered nothing more (docs/sweep.md).
   */
  timerSlotsPerSlot?: number;
  /**
   * It sleeps a retry backoff after an upstream error status (LiteLLM's router: two retries,
   * `_time_to_sleep_before_retry`), so a cell whose probe stages one waits on a timer too.
   */
  sleepsBeforeRetry?: boolean;
}

export type GatewayErrorCode =
  | "unknown-gateway"
  | "bad-spec"
  | "bad-config"
  | "not-installed"
  | "install-failed"
  | "binary-not-found"
  | "launch-failed"
  | "not-ready"
  | "interrupted"
  | "stop-failed";

/** The one error class of this room; `details` carries the NotRun evidence. */
export class GatewayError extends Error {
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly details: Omit<NotRun, "status" | "reason"> = {},
  ) {
    super(message);
    this.name = "GatewayError";
  }

  toNotRun(): NotRun {
    return { status: "not-run", reason: this.message, ...this.details };
  }
}

/** `portkey@1.15.2+locked` */
export function gatewayLabel(spec: GatewaySpec): string {
  return `${spec.name}@${spec.version}${spec.variant ? `+${spec.variant}` : ""}`;
}
