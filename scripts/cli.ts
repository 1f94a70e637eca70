import { CommanderError } from "commander";
import { endQuietlyWhenOutputCloses } from "./closed-output.ts";
import { EXIT } from "./exit-codes.ts";
import { gatecheckProgram } from "./program.ts";

endQuietlyWhenOutputCloses();
try {
  await gatecheckProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version surface as "errors" with exit code 0.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    // Loaded only on a failure: the map reads the file system, which a start must not load.
    const { cliErrorOf } = await import("./results-errors.ts");
    const failure = cliErrorOf(error);
    if (!failure) throw error;
    process.stderr.write(`gatecheck: ${failure.message}\n`);
    process.exitCode = failure.exitCode;
  }
}
