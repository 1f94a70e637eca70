/**
 * `gatecheck probes list | head -1`: the reader leaving is the end of the output, not an
 * error. Node ignores SIGPIPE, so a write to a closed pipe surfaces as an `EPIPE` error event
 * on stdout, which unhandled is a stack trace and exit 1. Installed once at the CLI's entry,
 * for every command: the command ends as `yes | head -1` ends, quietly, exit 0.
 */
import { EXIT } from "./exit-codes.ts";

export function endQuietlyWhenOutputCloses(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(EXIT.ok);
    throw error;
  });
}
