/**
 * Loopback confinement for a gateway that binds every interface and has no flag against it
 * (GoModel): it runs in a network namespace of its own whose only interface is `lo`
 * (`unshare --net --map-root-user`, util-linux), where `netns-relay.mjs` relays its port and
 * the mocks' ports through Unix sockets to this process, which relays them to the host's
 * loopback. From the host, the gateway is reachable on 127.0.0.1:<port> only; from inside,
 * it reaches only the mocks. A machine where this cannot be done gets a `not-run` column
 * that says why, never an exposed gateway.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DIALECTS } from "../../dialects/dialect.ts";
import { GatewayError, gatewayLabel, type LaunchContext, type RunningGateway } from "../adapter.ts";
import { findExecutable } from "../binary.ts";
import { launchProcess, type ProcessLaunch } from "../launch.ts";

const RELAY_MJS = fileURLToPath(new URL("./netns-relay.mjs", import.meta.url));
const SBIN_PATH = "/usr/sbin:/sbin:/usr/bin:/bin";

let usable: string | undefined | null = null;

/** Why confinement is impossible here, or undefined when it works (probed once). */
export function netnsUnavailable(): string | undefined {
  if (usable !== null) return usable;
  const unshare = findExecutable("unshare", `${process.env.PATH ?? ""}:${SBIN_PATH}`);
  const ip = findExecutable("ip", `${process.env.PATH ?? ""}:${SBIN_PATH}`);
  if (!unshare || !ip) {
    usable = `needs ${!unshare ? "unshare (util-linux)" : "ip (iproute2)"} to run it in a network namespace of its own`;
    return usable;
  }
  try {
    execFileSync(unshare, ["--net", "--map-root-user", ip, "link", "set", "lo", "up"], {
      stdio: "pipe",
      timeout: 10_000,
    });
    usable = undefined;
  } catch (error) {
    const said =
      (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
    usable = `cannot create a network namespace here (unshare --net --map-root-user: ${said})`;
  }
  return usable;
}

function pipeTo(client: Socket, connect: () => Socket): void {
  const upstream = connect();
  client.pipe(upstream);
  upstream.pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  for (const s of [client, upstream]) {
    s.on("error", end);
    s.on("close", end);
  }
}

function listen(server: Server, on: { path: string } | { host: string; port: number }) {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(on, () => resolve());
  });
}

/** The mocks' loopback ports the gateway must reach, from the launch context. */
export function mockPorts(ctx: Pick<LaunchContext, "mockUrl" | "fallbackMockUrl">): number[] {
  const urls = DIALECTS.flatMap((d) => [
    ctx.mockUrl(d),
    ...(ctx.fallbackMockUrl ? [ctx.fallbackMockUrl(d)] : []),
  ]);
  return [...new Set(urls.map((u) => Number(new URL(u).port)))];
}

export async function launchConfined(
  ctx: LaunchContext,
  how: ProcessLaunch,
): Promise<RunningGateway> {
  const label = gatewayLabel(ctx.spec);
  const why = netnsUnavailable();
  if (why) throw new GatewayError("launch-failed", `${label}: binds every interface and ${why}`);
  // Unix socket paths are limited to ~100 bytes: a short folder of their own.
  const dir = mkdtempSync(join(tmpdir(), "gc-ns-"));
  const servers: Server[] = [];
  const close = async () => {
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ingress = join(dir, "in.sock");
    const egress: string[] = [];
    for (const port of mockPorts(ctx)) {
      const path = join(dir, `out-${port}.sock`);
      const server = createServer((c) =>
        pipeTo(c, () => createConnection({ host: "127.0.0.1", port })),
      );
      await listen(server, { path });
      servers.push(server);
      egress.push("--egress", `${port}:${path}`);
    }
    const front = createServer((c) => pipeTo(c, () => createConnection({ path: ingress })));
    await listen(front, { host: "127.0.0.1", port: ctx.port });
    servers.push(front);
    const ip = findExecutable("ip", `${process.env.PATH ?? ""}:${SBIN_PATH}`) ?? "ip";
    const unshare =
      findExecutable("unshare", `${process.env.PATH ?? ""}:${SBIN_PATH}`) ?? "unshare";
    const running = await launchProcess(ctx, {
      ...how,
      command: unshare,
      args: [
        "--net",
        "--map-root-user",
        "--",
        process.execPath,
        RELAY_MJS,
        "--ip",
        ip,
        "--ingress",
        `${ingress}:${ctx.port}`,
        ...egress,
        "--",
        how.command,
        ...how.args,
      ],
    });
    let stopping: Promise<Awaited<ReturnType<RunningGateway["stop"]>>> | undefined;
    return {
      ...running,
      stop: () => {
        stopping ??= running.stop().finally(close);
        return stopping;
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
