/**
 * Writes the hash lock of a Python gateway version: `npx tsx gateways/write-lock.ts
 * litellm@1.96.2` resolves the pin in the gateway's recipe (requirement, constraints, the
 * date dependencies are taken as of) with uv, for every platform, and writes
 * `gateways/locks/<label>.txt` with a sha256 for every file of every package. Review the
 * diff before committing: the lock is what every install trusts.
 *
 * uv is installed once into `.gatecheck-cache/tools/uv@<version>` (pinned; a maintainer's
 * tool, never used by a sweep).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gatewayCacheDir } from "./cache.ts";
import { findPython, installerEnv } from "./pip-install.ts";
import { PYTHON_GATEWAYS } from "./python-gateways.ts";
import { LOCK_DIR, lockHeaderLines, lockPath } from "./python-lock.ts";

const UV_VERSION = "0.9.5";

async function uvBinary(): Promise<string> {
  const dir = join(dirname(gatewayCacheDir()), "tools", `uv@${UV_VERSION}`);
  const uv = join(dir, "bin", "uv");
  if (existsSync(uv)) return uv;
  const python = await findPython("3.8");
  if (!python) throw new Error("write-lock needs python3 on PATH to install uv");
  mkdirSync(dirname(dir), { recursive: true });
  execFileSync(python.path, ["-m", "venv", dir], { stdio: "inherit" });
  execFileSync(join(dir, "bin", "pip"), ["install", "--quiet", `uv==${UV_VERSION}`], {
    stdio: "inherit",
    env: installerEnv(),
  });
  return uv;
}

export async function writeLock(label: string): Promise<string> {
  const [name = "", version = ""] = label.split("@");
  const gateway = PYTHON_GATEWAYS.find((g) => g.name === name);
  const pin = gateway?.pins[version];
  if (!gateway || !pin) {
    const known = PYTHON_GATEWAYS.flatMap((g) => Object.keys(g.pins).map((v) => `${g.name}@${v}`));
    throw new Error(`no pin for ${label} in the recipes (pinned: ${known.join(", ")})`);
  }
  const uv = await uvBinary();
  const work = mkdtempSync(join(tmpdir(), "gatecheck-lock-"));
  try {
    const input = join(work, "requirements.in");
    const output = join(work, "lock.txt");
    writeFileSync(
      input,
      `${[pin.requirement, ...(pin.constraints ?? []).map((c) => c.spec)].join("\n")}\n`,
    );
    execFileSync(
      uv,
      [
        "pip",
        "compile",
        "--universal",
        "--generate-hashes",
        "--python-version",
        pin.python,
        "--exclude-newer",
        pin.resolvedAsOf,
        "--no-header",
        "--quiet",
        input,
        "-o",
        output,
      ],
      { stdio: "inherit", env: installerEnv() },
    );
    const tool = `uv ${UV_VERSION} pip compile --universal --generate-hashes`;
    const text = `${lockHeaderLines(label, pin, tool).join("\n")}\n${readFileSync(output, "utf8")}`;
    mkdirSync(LOCK_DIR, { recursive: true });
    writeFileSync(lockPath(name, version), text);
    return lockPath(name, version);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, "/"))) {
  const labels = process.argv.slice(2);
  if (labels.length === 0) {
    process.stderr.write("usage: npx tsx gateways/write-lock.ts NAME@VERSION [...]\n");
    process.exit(2);
  }
  for (const label of labels) process.stdout.write(`wrote ${await writeLock(label)}\n`);
}
