/**
 * `gatecheck mock`: the recording mock as a standalone backend. Prints
 * `listening on http://HOST:PORT` as its first stdout line; SIGINT/SIGTERM close the
 * listener, flush every record to the file, and exit 0 (stopping is how a server ends).
 */
import { CaptureError } from "../../mock-upstream/capture/index.ts";
import { exposedWarning } from "../../mock-upstream/host-guard.ts";
import { MockError, startMock } from "../../mock-upstream/index.ts";
import { PERSONA_NAMES } from "../../mock-upstream/personas/index.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { untilStopSignal } from "../stop-signal.ts";

export interface MockFlags {
  host: string;
  port: string;
  record?: string;
  persona?: string;
  prefix?: string;
  bodyLimit?: string;
  stagedLimit?: string;
  upstream?: string;
  capture?: string;
  replay?: string;
  replayTimeScale?: string;
  name: string;
}

function integer(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new CliError(
      `${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

function timeScale(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) {
    throw new CliError(`--replay-time-scale must be a number >= 0, got ${JSON.stringify(value)}`);
  }
  return n;
}

export async function runMock(flags: MockFlags): Promise<void> {
  const port = integer(flags.port, "--port", 0, 65_535);
  const bodyLimitBytes =
    flags.bodyLimit === undefined
      ? undefined
      : integer(flags.bodyLimit, "--body-limit", 1, 2 ** 40);
  const stagedBytesLimit =
    flags.stagedLimit === undefined
      ? undefined
      : integer(flags.stagedLimit, "--staged-limit", 1, 2 ** 40);
  if (flags.prefix !== undefined && !flags.prefix.startsWith("/")) {
    throw new CliError(`--prefix must start with "/", got ${JSON.stringify(flags.prefix)}`);
  }
  if (flags.capture && !flags.upstream) throw new CliError("--capture needs --upstream");
  if (flags.upstream && flags.replay)
    throw new CliError("--upstream and --replay exclude each other");
  const warning = exposedWarning("mock", flags.host);
  if (warning) process.stderr.write(`${warning}\n`);
  let mock: Awaited<ReturnType<typeof startMock>>;
  try {
    mock = await startMock({
      host: flags.host,
      port,
      name: flags.name,
      ...(flags.record ? { recordFile: flags.record } : {}),
      ...(flags.persona ? { persona: flags.persona } : {}),
      ...(flags.prefix ? { prefix: flags.prefix } : {}),
      ...(bodyLimitBytes ? { bodyLimitBytes } : {}),
      ...(stagedBytesLimit ? { stagedBytesLimit } : {}),
      ...(flags.upstream ? { upstream: flags.upstream } : {}),
      ...(flags.capture ? { captureFile: flags.capture } : {}),
      ...(flags.replay ? { replay: flags.replay } : {}),
      ...(flags.replayTimeScale === undefined
        ? {}
        : { replayTimeScale: timeScale(flags.replayTimeScale) }),
    });
  } catch (error) {
    if (error instanceof CaptureError) throw new CliError(error.message);
    if (error instanceof MockError) {
      const hint = error.code === "unknown-persona" ? ` (known: ${PERSONA_NAMES.join(", ")})` : "";
      throw new CliError(`${error.message}${hint}`);
    }
    throw error;
  }
  // Listening for the stop signals before saying so: a supervisor may signal on that line.
  const stopped = untilStopSignal();
  process.stdout.write(`listening on ${mock.url}\n`);
  await stopped;
  try {
    await mock.close();
  } catch (error) {
    process.stderr.write(`gatecheck mock: record file: ${(error as Error).message}\n`);
    process.exit(EXIT.failed);
  }
  process.stderr.write(`gatecheck mock: stopped after ${mock.recorded()} record(s)\n`);
  process.exit(EXIT.ok);
}
