/**
 * The load generator of the mock's benchmark, in a process of its own so that its cost is
 * not the servers': Debian's `wrk` (C, one thread, a Lua script that plants the nonce), or
 * autocannon in its own Node process where wrk is not installed. Pinned to one core with
 * `taskset` where that works, the servers to the other.
 */
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export type Generator = "wrk" | "autocannon";
export type NonceRegime = "distinct" | "shared";

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  /** The body, with `{NONCE}` where the nonce goes. */
  body: string;
  nonce: NonceRegime;
  /** The nonce every request of the shared regime carries. */
  sharedNonce: string;
  seconds: number;
  connections: number;
}

export interface LoadRun {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors, timeouts and non-2xx answers. */
  errors: number;
}

function works(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore", timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/** `taskset -c N` where the machine lets us pin (not in every container), else nothing. */
export function pinning(core: number): string[] {
  return works("taskset", ["-c", String(core), "true"]) ? ["taskset", "-c", String(core)] : [];
}

export function availableGenerator(wanted?: string): Generator {
  if (wanted === "autocannon") return "autocannon";
  // `wrk -v` prints its version and exits 1, so ask the shell whether it is there.
  if (works("sh", ["-c", "command -v wrk"])) return "wrk";
  if (wanted === "wrk") throw new Error("wrk is not installed (Debian: apt-get install wrk)");
  return "autocannon";
}

const luaString = (s: string) => JSON.stringify(s);

/** The wrk script: POST, the headers, a nonce per request (or the shared one), a JSON summary. */
function wrkScript(spec: LoadSpec): string {
  const [before, after] = spec.body.split("{NONCE}");
  const headers = Object.entries(spec.headers)
    .map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`)
    .join("\n");
  const nonce =
    spec.nonce === "shared"
      ? `local nonce = function() return ${luaString(spec.sharedNonce)} end`
      : `math.randomseed(os.time() + os.clock() * 1000000)
local prefix = string.format("%08x", math.random(0, 2147483647))
local counter = 0
local nonce = function()
  counter = counter + 1
  return "gc-" .. prefix .. string.format("%08x", counter)
end`;
  return `wrk.method = "POST"
${headers}
local before = ${luaString(before ?? "")}
local after = ${luaString(after ?? "")}
${nonce}
request = function()
  return wrk.format(nil, nil, nil, before .. nonce() .. after)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nRESULT {"requests":%d,"durationUs":%d,"errors":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout + e.status,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

const AUTOCANNON_CLIENT = fileURLToPath(new URL("./autocannon-client.mjs", import.meta.url));

/** Run one load and read its summary line. */
export async function runLoad(
  generator: Generator,
  spec: LoadSpec,
  dir: string,
  pin: string[],
): Promise<LoadRun> {
  let command: string[];
  if (generator === "wrk") {
    const script = join(dir, "load.lua");
    writeFileSync(script, wrkScript(spec));
    command = [
      "wrk",
      "-t1",
      `-c${spec.connections}`,
      `-d${spec.seconds}s`,
      "--timeout",
      "10s",
      "-s",
      script,
      spec.url,
    ];
  } else {
    const specFile = join(dir, "load.json");
    writeFileSync(specFile, JSON.stringify(spec));
    command = [process.execPath, AUTOCANNON_CLIENT, specFile];
  }
  const [bin, ...args] = [...pin, ...command] as [string, ...string[]];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`${bin} exited ${code}: ${text}`)),
    );
  });
  const line = /RESULT (\{.*\})/.exec(out)?.[1];
  if (!line) throw new Error(`no summary from ${generator}: ${out}`);
  const r = JSON.parse(line) as {
    requests: number;
    durationUs: number;
    errors: number;
    p50: number;
    p99: number;
  };
  return {
    requests: r.requests,
    perSecond: r.requests / (r.durationUs / 1e6),
    p50Ms: r.p50 / 1000,
    p99Ms: r.p99 / 1000,
    errors: r.errors,
  };
}
