import { CommanderError } from "commander";
import { endQuietlyWhenOutputCloses } from "./closed-output.ts";
import { EXIT } from "./exit-codes.ts";
import { gatecheckProgram } from "./program.ts";
import { cliErrorOf } from "./results-errors.ts";

endQuietlyWhenOutputCloses();
try {
  await gatecheckProgram().parseAsync(process.argv);
} catch (error) {
  const failure = error instanceof CommanderError ? undefined : cliErrorOf(error);
  if (error instanceof CommanderError) {
    // --help and --version surface as "errors" with exit code 0.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (failure) {
    process.stderr.write(`gatecheck: ${failure.message}\n`);
    process.exitCode = failure.exitCode;
  } else {
    throw error;
  }
}
