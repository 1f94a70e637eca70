import type { Command } from "commander";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerCheck: RegisterCommand = (program: Command) => {
  program
    .command("check")
    .description("judge recorded exchanges field by field (see docs/lens.md for the format)")
    .argument(
      "<file...>",
      "exchange JSON file(s), exchange chains (a multi-turn trace: docs/loops.md), mock record files (JSONL, `mock --record`), or folders of them (their *.json and *.jsonl files); all judged in one start-up",
    )
    .option("--json", "print the verdicts as JSON")
    .option(
      "--fail-on <verdicts>",
      "exit 1 when any verdict is one of these: comma-separated verdicts, or silent (dropped, mangled, invented, leaked); default: none",
    )
    .action(lazyAction(async () => (await import("../actions/check.ts")).check));
};
