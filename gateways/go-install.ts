/**
 * Go gateways installed on demand: `go install <package>@v<version>` into a GOBIN per
 * `name@version` (`.gatecheck-cache/gateways/gomodel@0.1.77/bin`), with the module cache and
 * build cache shared under `.gatecheck-cache/go`. Checksums are verified the way Go does:
 * every dependency against the module's own go.sum, the module itself against the checksum
 * database (GOSUMDB is set, never off; GONOSUMDB, GOPRIVATE, GOINSECURE and GOFLAGS=-insecure
 * are cleared). The module's `h1:` hash is recorded in the install marker.
 */
import { execFile } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { GatewaySpec, InstallContext, InstallResult } from "./adapter.ts";
import { gatewayLabel } from "./adapter.ts";
import { installDirFor } from "./cache.ts";
import {
  abandonInstall,
  freshInstallDir,
  readMarker,
  withInstallLock,
  writeMarker,
} from "./install-dir.ts";
import { readLogTail } from "./process-group.ts";
import { runLogged } from "./run-logged.ts";

const GO_TIMEOUT_MS = 900_000;

export interface GoGateway {
  name: string;
  /** Module path (`github.com/enterpilot/gomodel`). */
  module: string;
  /** Package with `main`, inside the module (`github.com/enterpilot/gomodel/cmd/gomodel`). */
  package: string;
  /** The executable `go install` writes into GOBIN. */
  binary: string;
}

export function goBinary(installDir: string, gateway: GoGateway): string {
  return join(installDir, "bin", gateway.binary);
}

/** Variables that would turn checksum verification off or point the build elsewhere. */
const UNVERIFYING =
  /^(GONOSUMDB|GONOSUMCHECK|GOPRIVATE|GOINSECURE|GOFLAGS|GOWORK|GOBIN|GOPATH|GOMODCACHE|GOCACHE|GOTOOLCHAIN|GOSUMDB|GOENV)$/;

export function goEnv(cacheRoot: string, installDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!UNVERIFYING.test(k)) env[k] = v;
  return {
    ...env,
    GOBIN: join(installDir, "bin"),
    GOPATH: join(cacheRoot, "go"),
    GOMODCACHE: join(cacheRoot, "go", "mod"),
    GOCACHE: join(cacheRoot, "go", "build"),
    GOSUMDB: "sum.golang.org",
    // The machine's Go builds it; never a toolchain downloaded behind our back.
    GOTOOLCHAIN: "local",
    GOFLAGS: "-mod=mod",
    GOWORK: "off",
    // A user's go.env must not undo the above.
    GOENV: "off",
  };
}

function goVersion(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile("go", ["env", "GOVERSION"], { timeout: 10_000 }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim()),
    );
  });
}

/** `go mod download -json` of the module: its verified `h1:` hash, or the proxy's refusal. */
function moduleSum(
  module: string,
  version: string,
  env: NodeJS.ProcessEnv,
): Promise<{ sum?: string; error?: string }> {
  return new Promise((resolve) => {
    execFile(
      "go",
      ["mod", "download", "-json", `${module}@v${version}`],
      { timeout: GO_TIMEOUT_MS, env, cwd: env.GOPATH },
      (_error, stdout) => {
        try {
          const info = JSON.parse(stdout) as { Sum?: string; Error?: string };
          resolve(info.Error ? { error: info.Error } : { ...(info.Sum && { sum: info.Sum }) });
        } catch {
          resolve({ error: `go mod download printed no JSON: ${stdout.slice(0, 200)}` });
        }
      },
    );
  });
}

export async function installGoGateway(
  spec: GatewaySpec,
  gateway: GoGateway,
  ctx: InstallContext,
): Promise<InstallResult> {
  const label = gatewayLabel(spec);
  const dir = installDirFor(ctx.cacheDir, spec);
  const logPath = join(dir, "install.log");
  const done = (cached: boolean): InstallResult => ({
    status: "ok",
    dir,
    version: spec.version,
    logPath,
    cached,
  });
  if (readMarker(dir)?.version === spec.version) return done(true);
  const toolchain = await goVersion();
  if (!toolchain) return { status: "not-run", reason: `${label}: needs Go (\`go\` on PATH)` };
  const cacheRoot = dirname(ctx.cacheDir);
  return withInstallLock(
    dir,
    async () => {
      if (readMarker(dir)?.version === spec.version) return done(true);
      freshInstallDir(dir);
      const env = goEnv(cacheRoot, dir);
      const started = Date.now();
      const target = `${gateway.package}@v${spec.version}`;
      ctx.report?.(`${label}: go install ${target} (${toolchain}, checksums verified) into ${dir}`);
      mkdirSync(env.GOPATH ?? dir, { recursive: true });
      const fail = (why: string, exitCode?: number): InstallResult => {
        appendFileSync(logPath, `gatecheck: ${why}\n`);
        const kept = abandonInstall(dir, logPath);
        return {
          status: "not-run",
          reason: `${label}: install failed (${why}); see ${kept}`,
          logPath: kept,
          logTail: readLogTail(kept, 15),
          ...(exitCode !== undefined && { exitCode }),
        };
      };
      const { sum, error } = await moduleSum(gateway.module, spec.version, env);
      if (!sum) {
        // The proxy's own words: a refusal is final here, and the reason a reader needs.
        const said = (error ?? "no checksum")
          .split("\n")
          .map((l) => l.trim())
          .filter(Boolean);
        return fail(
          `the Go module proxy did not serve ${gateway.module}@v${spec.version}: ${said.join(" ")}`,
        );
      }
      const code = await runLogged({
        command: "go",
        args: ["install", "-trimpath", target],
        cwd: env.GOPATH ?? dir,
        env,
        logPath,
        timeoutMs: GO_TIMEOUT_MS,
        ...(ctx.signal && { signal: ctx.signal }),
      });
      if (code !== 0) return fail(`go install exited ${code}`, code);
      const seconds = Math.round((Date.now() - started) / 1000);
      writeMarker(dir, {
        label,
        via: "go",
        version: spec.version,
        pinnedBy: `${gateway.module} v${spec.version} ${sum}`,
        seconds,
        toolchain,
      });
      ctx.report?.(`${label}: installed in ${seconds} s (${gateway.module} ${sum})`);
      return done(false);
    },
    ctx.signal,
  );
}
