/**
 * `gatecheck gateways list|install|doctor`: what gateways we know, install one into the
 * cache, and check one end to end against an in-process mock.
 */
import type { Command } from "commander";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerGateways: RegisterCommand = (program: Command) => {
  const gateways = program
    .command("gateways")
    .description("Gateways under test: list, install, doctor");
  gateways
    .command("list")
    .description("Known gateways: pinned version, install variants, installed versions, routes")
    .option("--json", "machine-readable output")
    .action(lazyAction(async () => (await import("../actions/gateways.ts")).listGateways));
  gateways
    .command("install")
    .description(
      "Install a gateway (npm, PyPI from a hash lock, Go module) into the cache (.gatecheck-cache/gateways or $GATECHECK_CACHE)",
    )
    .argument("[gateway]", "NAME[@VERSION][+VARIANT], e.g. portkey@1.15.2+locked or litellm@1.83.9")
    .option("--all", "install every gateway gatecheck installs itself, at its pinned version")
    .action(lazyAction(async () => (await import("../actions/gateways.ts")).install));
  gateways
    .command("doctor")
    .description(
      "Install, launch against an in-process mock, send one request per route (and stream), stop",
    )
    .argument("<gateway>", "NAME[@VERSION][+VARIANT] or a gateway JSON file")
    .option("--attach <url>", "use a gateway already running at URL instead of launching one")
    .option("--workdir <dir>", "work folder (config, log, HOME); kept afterwards")
    .option("--keep", "keep the temporary work folder")
    .option(
      "--timeout <ms>",
      "readiness deadline (default: the gateway's own, 30 s; 180 s for the Python gateways)",
    )
    .option("--json", "the route checks as data on stdout (README: gateways doctor --json)")
    .action(lazyAction(async () => (await import("../actions/gateways.ts")).doctor));
};
