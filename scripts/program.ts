import { Command } from "commander";
import packageJson from "../package.json" with { type: "json" };
import { COMMANDS } from "./commands/index.ts";

/** The `gatecheck` command line: every subcommand registered, errors thrown, not exited. */
export function gatecheckProgram(): Command {
  const program = new Command()
    .name("gatecheck")
    .description(
      "Measure what LLM gateways silently lose when they translate between wire dialects.",
    )
    .version(packageJson.version, "-V, --version", "print gatecheck's version")
    .showHelpAfterError()
    .exitOverride();
  for (const register of COMMANDS) register(program);
  return program;
}
