import type { Command } from "commander";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerMock: RegisterCommand = (program: Command) => {
  program
    .command("mock")
    .description(
      "Run the recording mock upstream: point a gateway's backend at it; every request is recorded (credentials redacted) and answered like the provider would",
    )
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--port <port>", "port to bind (0 picks a free one)", "9990")
    .option("--record <file>", "append every request to this JSONL file")
    .option("--persona <name>", "validate requests as a strict provider does")
    .option("--prefix <path>", "mount point stripped before routing, e.g. /api/v1")
    .option("--body-limit <bytes>", "answer 413 to bodies over this size (default 32 MiB)")
    .option(
      "--staged-limit <bytes>",
      "refuse (413) staging past this many bytes of waiting specs (default 64 MiB)",
    )
    .option("--upstream <url>", "record-through: forward every request to this live upstream")
    .option("--capture <file>", "with --upstream: append each exchange to this JSONL file")
    .option("--replay <file>", "serve a capture file back, byte-exact, as staged replies")
    .option("--replay-time-scale <factor>", "multiply the replayed timings (0 = no delays)")
    .option("--name <name>", "listener name written on records", "mock")
    .action(lazyAction(async () => (await import("../actions/mock.ts")).runMock));
};
