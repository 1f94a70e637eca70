import type { Command } from "commander";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerMerge: RegisterCommand = (program: Command) => {
  program
    .command("merge")
    .description(
      "Merge results databases (shards of one sweep, or several machines' runs) into OUT; conflicting duplicate cells stop the merge and leave OUT unchanged",
    )
    .argument("<out>", "output database (created when missing)")
    .argument("<inputs...>", "input databases")
    .action(lazyAction(async () => (await import("../actions/merge.ts")).mergeAction));
};
