/**
 * Run by `interrupt.test.ts` in its own process: start the fake gateway with a long
 * start-up delay (so the launch is still waiting when the test sends SIGINT).
 * argv: <workdir> <abort|reaper>. `abort` wires SIGINT to the launch's AbortSignal, as a
 * CLI does; `reaper` installs nothing, so only the room's reaper stands between a Ctrl-C
 * and an orphaned gateway.
 */
import { startGateway } from "../start.ts";
import { fakeGatewayAdapter } from "./fake-gateway.ts";
import { startTinyMock } from "./tiny-mock.ts";

const [workdir, mode] = process.argv.slice(2);
if (!workdir || (mode !== "abort" && mode !== "reaper")) {
  process.stderr.write("usage: launch-then-wait.ts <workdir> <abort|reaper>\n");
  process.exit(2);
}
const mock = await startTinyMock();
const abort = new AbortController();
if (mode === "abort") process.once("SIGINT", () => abort.abort());
const started = await startGateway(
  fakeGatewayAdapter(["--start-delay=60000", "--fork-child"], 60_000),
  { name: "fake", version: "1.0.0" },
  { workdir, mockUrl: () => mock.url, signal: abort.signal },
);
process.stdout.write(
  `${JSON.stringify({ status: started.status, reason: "reason" in started ? started.reason : undefined })}\n`,
);
await mock.close();
