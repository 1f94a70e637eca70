import type { Command } from "commander";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerProbes: RegisterCommand = (program: Command) => {
  const probes = program.command("probes").description("The probe corpus: list it, check it");
  probes
    .command("list")
    .description("List every probe: id, client dialect, axis, field, severity, modes, known issues")
    .option("--json", "print the probes as a JSON array")
    .option("--probes-dir <dir>", "also load user probes from the *.json files in this folder")
    .option("--filter <text>", "only probes whose id contains this text")
    .action(lazyAction(async () => (await import("../actions/probes.ts")).listProbesAction));
  probes
    .command("check")
    .description(
      "Run every probe through synthetic carry-all / carry-nothing / leak-all translations; exit 1 naming probes whose checker cannot pass or fire",
    )
    .option("--json", "print the report as JSON")
    .option("--probes-dir <dir>", "also check user probes from the *.json files in this folder")
    .option("--filter <text>", "only probes whose id contains this text")
    .action(lazyAction(async () => (await import("../actions/probes.ts")).checkProbesAction));
};
