/**
 * The CLI run in-process for tests (unit tests only): the commands given are registered on a
 * fresh program, stdout and stderr are captured, and the exit code it would end with is
 * returned (a CliError's, or `process.exitCode`, or 0).
 */
import { Command } from "commander";
import { vi } from "vitest";
import { CliError } from "../../exit-codes.ts";
import type { RegisterCommand } from "../index.ts";

export async function runCli(
  registers: readonly RegisterCommand[],
  args: readonly string[],
): Promise<{ out: string; err: string; code: number }> {
  const program = new Command().exitOverride();
  for (const register of registers) register(program);
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  process.exitCode = undefined;
  try {
    await program.parseAsync(["node", "gatecheck", ...args]);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { out, err: err + error.message, code: error.exitCode };
  } finally {
    vi.restoreAllMocks();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { out, err, code };
}
