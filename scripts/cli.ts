import { Command, CommanderError } from "commander";
import { commandsFor } from "./commands/index.ts";
import { CliError, EXIT } from "./exit-codes.ts";

const program = new Command()
  .name("gatecheck")
  .description("Measure what LLM gateways silently lose when they translate between wire dialects.")
  .showHelpAfterError()
  .exitOverride();

for (const register of await commandsFor(process.argv.slice(2))) register(program);

try {
  await program.parseAsync(process.argv);
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
