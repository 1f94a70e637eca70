/**
 * A benchmark script's flags: node's `parseArgs`, strict, with `--help` (`-h`) printing the
 * script's usage (exit 0), and a flag it does not know, a missing value or a value the script
 * rejects printing what is wrong and the usage (exit 2), before anything is measured or
 * written, as the CLI's commands do.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

export function benchArgs<const T extends Options, const P extends boolean = false>(
  usage: string,
  options: T,
  allowPositionals?: P,
) {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${usage.trim()}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({
      args,
      options,
      allowPositionals: (allowPositionals ?? false) as P,
      strict: true as const,
    });
  } catch (error) {
    return usageError(usage, (error as Error).message);
  }
}

/** Exit 2 with what is wrong and the usage: a value the script cannot use. */
export function usageError(usage: string, message: string): never {
  process.stderr.write(`${message}\n\n${usage.trim()}\n`);
  process.exit(2);
}

/** A flag's value as a number ≥ `min` (an integer when `integer`), or exit 2 saying so. */
export function numberFlag(
  usage: string,
  name: string,
  value: string | undefined,
  { min = 0, integer = false }: { min?: number; integer?: boolean } = {},
): number {
  const n = Number(value);
  if (value === undefined || value.trim() === "" || !Number.isFinite(n) || n < min) {
    return usageError(usage, `--${name}: expected a number ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  if (integer && !Number.isInteger(n)) {
    return usageError(usage, `--${name}: expected a whole number, got ${JSON.stringify(value)}`);
  }
  return n;
}
