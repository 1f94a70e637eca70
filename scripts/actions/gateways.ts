/**
 * `gatecheck gateways list|install|doctor`: what gateways we know, install one into the
 * cache, and check one end to end against an in-process mock.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GatewayError, gatewayLabel } from "../../gateways/adapter.ts";
import { gatewayCacheDir, installedLabels } from "../../gateways/cache.ts";
import { checkRoutes, type DoctorMock, type RouteCheck } from "../../gateways/doctor.ts";
import type { DoctorReport } from "../../gateways/doctor-report.ts";
import { BUILTIN_ADAPTERS, resolveGateway } from "../../gateways/registry.ts";
import { startGateway } from "../../gateways/start.ts";
import { type ColumnMocks, startColumnMocks } from "../../sweep/persona-mocks.ts";
import { doctorMockOf } from "../../sweep/route-preflight.ts";
import { durationFlag, MS } from "../duration-flag.ts";
import { CliError, EXIT } from "../exit-codes.ts";

function asCliError(error: unknown): never {
  if (error instanceof GatewayError) {
    const usage =
      error.code === "bad-spec" || error.code === "bad-config" || error.code === "unknown-gateway";
    throw new CliError(error.message, usage ? EXIT.usage : EXIT.failed);
  }
  throw error;
}

export function listGateways(options: { json?: boolean }): void {
  const json = options.json ?? false;
  const cacheDir = gatewayCacheDir();
  const rows = BUILTIN_ADAPTERS.map((a) => ({
    name: a.name,
    source: a.source,
    pinned: a.defaultVersion,
    variants: a.variants ?? {},
    installed: installedLabels(cacheDir, a.name),
    description: a.description,
    routes: a.routes({ name: a.name, version: a.defaultVersion }).map((r) => ({
      id: r.id,
      client: r.client,
      backend: r.backend,
      ingressPath: r.ingressPath,
      native: r.native ?? false,
      status: r.status,
      ...(r.streamStatus && { streamStatus: r.streamStatus }),
      ...(r.notes && { notes: r.notes }),
    })),
  }));
  if (json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  for (const row of rows) {
    const installed = INSTALLED_BY_US.includes(row.source)
      ? ` installed: ${row.installed.join(", ") || "no"}`
      : "";
    const variants = Object.keys(row.variants).length
      ? ` variants: ${Object.keys(row.variants).join(", ")}`
      : "";
    process.stdout.write(
      `${row.name}@${row.pinned} (${row.source})${variants}${installed}\n  ${row.description}\n`,
    );
    for (const r of row.routes) {
      const stream =
        r.streamStatus && r.streamStatus !== r.status ? `, stream ${r.streamStatus}` : "";
      process.stdout.write(
        `  ${r.native ? "*" : " "} ${r.id.padEnd(42)} ${r.ingressPath.padEnd(22)} ${r.status}${stream}\n`,
      );
    }
  }
  process.stdout.write("(* native route: client dialect = backend dialect, the control leg)\n");
}

/** What `gateways install` installs with `--all`: every gateway we install ourselves. */
export function installableSpecs(): string[] {
  return BUILTIN_ADAPTERS.filter((a) => INSTALLED_BY_US.includes(a.source)).flatMap((a) => [
    `${a.name}@${a.defaultVersion}`,
    ...Object.keys(a.variants ?? {}).map((v) => `${a.name}@${a.defaultVersion}+${v}`),
  ]);
}

const INSTALLED_BY_US: readonly string[] = ["npm", "pypi", "go"];

async function installOne(text: string): Promise<string | undefined> {
  const { adapter, spec } = await resolveGateway(text).catch(asCliError);
  const label = gatewayLabel(spec);
  const started = Date.now();
  const result = await adapter.install(spec, {
    cacheDir: gatewayCacheDir(),
    report: (line) => process.stderr.write(`${line}\n`),
  });
  if (result.status !== "ok") {
    const tail = result.logTail?.length
      ? `\n${result.logTail.map((l) => `  | ${l}`).join("\n")}`
      : "";
    return `not-run: ${result.reason}${tail}`;
  }
  const deps = Object.entries(result.dependencies ?? {})
    .map(([k, v]) => `${k}@${v}`)
    .join(", ");
  const took = result.cached ? "" : ` in ${Math.round((Date.now() - started) / 1000)} s`;
  process.stdout.write(
    `${label}: ${result.cached ? "already installed" : `installed${took}`}${result.dir ? ` in ${result.dir}` : ""}${deps ? ` (${deps})` : ""}\n`,
  );
  return undefined;
}

export async function install(text: string | undefined, options: { all?: boolean }): Promise<void> {
  if (Boolean(options.all) === Boolean(text)) {
    throw new CliError("give one gateway (NAME[@VERSION][+VARIANT]) or --all", EXIT.usage);
  }
  const failures: string[] = [];
  for (const spec of options.all ? installableSpecs() : [text ?? ""]) {
    const failed = await installOne(spec);
    if (failed) {
      process.stderr.write(`${failed}\n`);
      failures.push(spec);
    }
  }
  if (failures.length > 0) {
    throw new CliError(`could not install: ${failures.join(", ")}`, EXIT.failed);
  }
}

/** Where the doctor's text goes: stdout, or stderr when stdout is the `--json` report. */
type Say = (text: string) => void;

function printCheck(c: RouteCheck, say: Say): void {
  // A failure the route table documents is expected; only a surprise is upper case.
  const mark = c.worked ? "ok   " : c.asDocumented ? "known" : "FAIL ";
  const note = c.asDocumented ? "" : `  <-- documented as ${c.expected}`;
  say(`  ${mark} ${c.route.padEnd(42)} ${c.mode.padEnd(10)} ${c.detail}${note}\n`);
  // What the sweep's preflight makes of the same check (sweep/route-preflight.ts).
  if (c.preflight) say(`        a sweep would not sweep it: ${c.preflight.reason}\n`);
}

type Running = Extract<Awaited<ReturnType<typeof startGateway>>, { status: "running" }>;

/** Route checks on a running gateway, always stopped afterwards; returns a failure or undefined. */
async function checkStarted(
  label: string,
  started: Running,
  doctorMock: DoctorMock,
  mocks: ColumnMocks,
  sent: { apiKey: string; model: string },
  report: DoctorReport,
  say: Say,
): Promise<string | undefined> {
  let failed: string | undefined;
  const deps = Object.entries(started.install.dependencies ?? {})
    .map(([k, v]) => `${k}@${v}`)
    .join(", ");
  report.baseUrl = started.gateway.baseUrl;
  if (started.gateway.pid) report.pid = started.gateway.pid;
  say(
    `  up at ${started.gateway.baseUrl}${started.gateway.pid ? ` (pid ${started.gateway.pid})` : ""}${deps ? ` with ${deps}` : ""}\n`,
  );
  let checks: RouteCheck[] = [];
  try {
    checks = await checkRoutes(started.gateway, started.routes, doctorMock, sent);
  } finally {
    const stop = await started.gateway.stop();
    report.stopped = { how: stop.how, gone: stop.gone };
    say(
      `  stopped: ${stop.how}, ${stop.gone ? "process group gone" : "PROCESS GROUP STILL ALIVE"}\n`,
    );
    if (!stop.gone) failed = `${label}: process group ${started.gateway.pid} survived stop`;
  }
  report.checks = checks;
  for (const c of checks) printCheck(c, say);
  const background = mocks.listeners().flatMap((l) => l.records().filter((r) => !r.nonce));
  if (background.length) {
    const paths = [
      ...new Set(background.map((r) => `${r.request.method} ${r.request.path.split("?")[0]}`)),
    ];
    report.background = { requests: background.length, paths };
    say(
      `  background traffic (not probes): ${background.length} request(s): ${paths.join(", ")}\n`,
    );
  }
  const off = checks.filter((c) => !c.asDocumented);
  if (off.length)
    failed ??= `${label}: ${off.length} check(s) differ from the documented route table`;
  if (!failed)
    say(
      `${label}: doctor ok (${checks.filter((c) => c.worked).length}/${checks.length} checks worked, all as documented)\n`,
    );
  return failed;
}

interface DoctorOptions {
  attach?: string;
  workdir?: string;
  keep?: boolean;
  timeout?: string;
  json?: boolean;
}

export async function doctor(text: string, options: DoctorOptions): Promise<void> {
  const readyTimeoutMs =
    options.timeout === undefined ? undefined : durationFlag(options.timeout, "--timeout", MS);
  const { adapter, spec } = await resolveGateway(text).catch(asCliError);
  const label = gatewayLabel(spec);
  const workdir = options.workdir ?? mkdtempSync(join(tmpdir(), `gatecheck-doctor-${spec.name}-`));
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once("SIGINT", onSigint);
  // The sweep's own mock listeners (a persona's for a strict-provider route, serving its
  // provider's mount) and the sweep's own view of them: what a route's check meets here is what
  // a sweep's preflight and cells meet.
  const routes = adapter.routes(spec);
  // The sweep's key and backend model, loaded here only: `gateways list` needs no sweep.
  const { BACKEND_MODEL, ROUTE_API_KEY } = await import("../../sweep/run-sweep.ts");
  const mocks = await startColumnMocks(spec.name, workdir, routes);
  const doctorMock = doctorMockOf(mocks);
  let failed: string | undefined;
  const say: Say = (text) => (options.json ? process.stderr : process.stdout).write(text);
  const report: DoctorReport = {
    gateway: label,
    status: "ok",
    checks: [],
    background: { requests: 0, paths: [] },
  };
  try {
    say(`${label}: starting against mock ${mocks.url()} (workdir ${workdir})\n`);
    const started = await startGateway(adapter, spec, {
      workdir,
      mockUrl: (_backend, persona) => mocks.url(persona),
      models: [BACKEND_MODEL],
      ...(readyTimeoutMs !== undefined && { readyTimeoutMs }),
      signal: abort.signal,
      ...(options.attach && { attachUrl: options.attach }),
    });
    if (started.status !== "running") {
      const tail = started.logTail?.length
        ? `\n${started.logTail.map((l) => `  | ${l}`).join("\n")}`
        : "";
      const log = started.logPath ? `\n  log: ${started.logPath}` : "";
      failed = `not-run: ${started.reason}${log}${tail}`;
      report.status = "not-run";
      report.reason = started.reason;
    } else {
      failed = await checkStarted(
        label,
        started,
        doctorMock,
        mocks,
        {
          apiKey: ROUTE_API_KEY,
          model: BACKEND_MODEL,
        },
        report,
        say,
      );
      if (failed) {
        report.status = "failed";
        report.reason = failed;
      }
    }
  } finally {
    process.off("SIGINT", onSigint);
    await mocks.close();
    if (!options.workdir && !options.keep) rmSync(workdir, { recursive: true, force: true });
  }
  if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (failed) throw new CliError(failed, abort.signal.aborted ? EXIT.interrupted : EXIT.failed);
}
