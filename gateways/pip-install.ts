/**
 * Python gateways installed on demand: one virtualenv per `name@version` under the install
 * cache (`.gatecheck-cache/gateways/litellm@1.96.2/venv`), filled from the committed hash
 * lock with `pip install --require-hashes --no-deps --only-binary=:all:`: every file is
 * checked against the lock's sha256, nothing is resolved at install time, and no source
 * distribution runs a build script. Downloaded wheels are kept (`.gatecheck-cache/wheels`),
 * so a second version of a gateway, or a reinstall, reuses the wheels it shares.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { GatewaySpec, InstallContext, InstallResult } from "./adapter.ts";
import { gatewayLabel } from "./adapter.ts";
import { installDirFor, REPO_ROOT } from "./cache.ts";
import {
  abandonInstall,
  freshInstallDir,
  readMarker,
  withInstallLock,
  writeMarker,
} from "./install-dir.ts";
import { readLogTail } from "./process-group.ts";
import { type PythonGateway, readLock } from "./python-lock.ts";
import { runLogged } from "./run-logged.ts";

const PIP_TIMEOUT_MS = 900_000;

/** Interpreters tried in order; the first at or above the lock's Python is used. */
const PYTHONS = ["python3", "python3.13", "python3.12", "python3.11", "python3.10"];

export function venvPython(installDir: string): string {
  return join(installDir, "venv", "bin", "python");
}

export function venvBin(installDir: string, script: string): string {
  return join(installDir, "venv", "bin", script);
}

/** Variables that would point pip or Python somewhere other than the venv being built. */
const REDIRECTING =
  /^(PYTHONPATH|PYTHONHOME|PYTHONUSERBASE|VIRTUAL_ENV|CONDA_PREFIX|PIP_(TARGET|PREFIX|USER|ROOT|REQUIRE_HASHES|NO_BINARY|ONLY_BINARY))$/;

export function installerEnv(from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(from)) if (!REDIRECTING.test(k)) env[k] = v;
  return env;
}

function execText(file: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, [...args], { timeout: 10_000, env: installerEnv() }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim()),
    );
  });
}

function atLeast(version: string, minimum: string): boolean {
  const [a = 0, b = 0] = version.split(".").map(Number);
  const [x = 0, y = 0] = minimum.split(".").map(Number);
  return a > x || (a === x && b >= y);
}

/**
 * Interpreters pyenv installed beside the selected one (`$PYENV_ROOT/versions/3.12.1`): a
 * shim answers only for the selected version, so a gateway that needs a newer Python than
 * the selected one (Switchyard 0.2.0: 3.12) finds it here.
 */
function pyenvPythons(): string[] {
  const root = process.env.PYENV_ROOT ?? join(homedir(), ".pyenv");
  try {
    return readdirSync(join(root, "versions"))
      .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
      .sort((a, b) => b.localeCompare(a, undefined, { numeric: true }))
      .map((v) => join(root, "versions", v, "bin", "python3"))
      .filter((p) => existsSync(p));
  } catch {
    return [];
  }
}

/** The first interpreter on PATH (then pyenv's) at or above `minimum`, with its version. */
export async function findPython(
  minimum: string,
): Promise<{ path: string; version: string } | undefined> {
  for (const name of [...PYTHONS, ...pyenvPythons()]) {
    const version = await execText(name, [
      "-c",
      "import sys; print('.'.join(map(str, sys.version_info[:3])))",
    ]);
    if (version && atLeast(version, minimum)) return { path: name, version };
  }
  return undefined;
}

/** The version of a distribution installed in the venv, read by the venv's own Python. */
export function installedDistribution(
  installDir: string,
  distribution: string,
): Promise<string | undefined> {
  const python = venvPython(installDir);
  if (!existsSync(python)) return Promise.resolve(undefined);
  return execText(python, [
    "-c",
    `import importlib.metadata as m; print(m.version(${JSON.stringify(distribution)}))`,
  ]);
}

function notRun(reason: string, logPath?: string, exitCode?: number): InstallResult {
  return {
    status: "not-run",
    reason,
    ...(logPath && { logPath, logTail: readLogTail(logPath, 15) }),
    ...(exitCode !== undefined && { exitCode }),
  };
}

export async function installPythonGateway(
  spec: GatewaySpec,
  gateway: PythonGateway,
  ctx: InstallContext,
): Promise<InstallResult> {
  const label = gatewayLabel(spec);
  const pin = gateway.pins[spec.version];
  const lock = readLock(gateway.name, spec.version, gateway.lockDir);
  if (!pin || !lock) {
    const known = Object.keys(gateway.pins).join(", ");
    return notRun(
      `${label}: no hash lock committed for this version (locked: ${known}); write one with \`npx tsx gateways/write-lock.ts ${label}\` and review it`,
    );
  }
  const dir = installDirFor(ctx.cacheDir, spec);
  const logPath = join(dir, "install.log");
  const done = (cached: boolean): InstallResult => ({
    status: "ok",
    dir,
    version: spec.version,
    logPath,
    cached,
  });
  const marker = readMarker(dir);
  if (marker?.pinnedBy === lock.sha256) return done(true);
  const signal = ctx.signal;
  return withInstallLock(
    dir,
    async () => {
      if (readMarker(dir)?.pinnedBy === lock.sha256) return done(true);
      const python = await findPython(pin.python);
      if (!python) {
        return notRun(
          `${label}: needs Python >= ${pin.python} (tried ${PYTHONS.join(", ")} on PATH)`,
        );
      }
      freshInstallDir(dir);
      const started = Date.now();
      ctx.report?.(
        `${label}: installing ${pin.requirement} and ${lock.packages.length - 1} hash-pinned dependencies from ${relative(REPO_ROOT, lock.path)} into ${dir} (Python ${python.version})`,
      );
      const base = {
        cwd: dir,
        env: installerEnv(),
        logPath,
        timeoutMs: PIP_TIMEOUT_MS,
        ...(signal && { signal }),
      };
      // pip's own HTTP cache is not kept when the index answers `no-store`: the wheels are
      // kept in a wheelhouse of ours instead, shared by every version and gateway. The
      // install reads only from there; wheels it lacks are downloaded first (both steps check
      // every file against the lock). Bytecode is compiled on first import, for the modules
      // the gateway imports, rather than for all 100-odd packages at install.
      const wheelhouse = join(dirname(ctx.cacheDir), "wheels");
      const pip = (...args: string[]): string[] => [
        "-m",
        "pip",
        ...args,
        "--require-hashes",
        "--no-deps",
        "--only-binary=:all:",
        "--no-input",
        "--disable-pip-version-check",
        "-r",
        lock.path,
      ];
      const fromWheelhouse = pip(
        "install",
        "--no-index",
        "--find-links",
        wheelhouse,
        "--no-compile",
      );
      const run = (command: string, args: string[]) => runLogged({ ...base, command, args });
      const fail = (why: string, exitCode?: number): InstallResult => {
        const kept = abandonInstall(dir, logPath);
        return notRun(`${label}: install failed (${why}); see ${kept}`, kept, exitCode);
      };
      const venv = await run(python.path, ["-m", "venv", join(dir, "venv")]);
      if (venv !== 0) return fail(`python -m venv exited ${venv}`, venv);
      if ((await run(venvPython(dir), fromWheelhouse)) !== 0) {
        const download = await run(venvPython(dir), pip("download", "--dest", wheelhouse));
        if (download !== 0) return fail(`pip download exited ${download}`, download);
        const install = await run(venvPython(dir), fromWheelhouse);
        if (install !== 0) return fail(`pip install exited ${install}`, install);
      }
      const installed = await installedDistribution(dir, gateway.distribution);
      if (installed !== spec.version) {
        return fail(`the lock installed ${gateway.distribution} ${installed ?? "nothing"}`);
      }
      const seconds = Math.round((Date.now() - started) / 1000);
      writeMarker(dir, {
        label,
        via: "pip",
        version: spec.version,
        pinnedBy: lock.sha256,
        seconds,
        toolchain: `Python ${python.version}`,
      });
      ctx.report?.(`${label}: installed in ${seconds} s`);
      return done(false);
    },
    signal,
  );
}
