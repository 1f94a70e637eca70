import { CommanderError } from "commander";
import { CliError, EXIT } from "./exit-codes.ts";
import { gatecheckProgram } from "./program.ts";

try {
  await gatecheckProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version surface as "errors" with exit code 0.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (error instanceof CliError) {
    process.stderr.write(`gatecheck: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    throw error;
  }
}
