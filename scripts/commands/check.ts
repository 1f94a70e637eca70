import type { Command } from "commander";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerCheck: RegisterCommand = (program: Command) => {
  program
    .command("check")
    .description("judge recorded exchanges field by field (see docs/lens.md for the format)")
    .argument("<exchange...>", "exchange JSON file(s); several are judged in one start-up")
    .option("--json", "print the verdicts as JSON")
    .action(lazyAction(async () => (await import("../actions/check.ts")).check));
};
