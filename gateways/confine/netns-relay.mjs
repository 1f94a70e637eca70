// Runs inside a network namespace of its own (started as `unshare --net --map-root-user
// node netns-relay.mjs ...`): brings up the namespace's loopback, relays TCP between the
// namespace's loopback ports and Unix sockets the sweep listens on, then runs the gateway
// as its child. The namespace has no interface but `lo`, so whatever the gateway binds,
// nothing outside this machine's loopback can reach it, and it can reach only the mocks.
//
//   --ip PATH                  the `ip` executable (iproute2)
//   --ingress SOCKET:PORT      listen on SOCKET, connect to 127.0.0.1:PORT (the gateway)
//   --egress PORT:SOCKET       listen on 127.0.0.1:PORT (a mock's port), connect to SOCKET
//   -- COMMAND ARGS...         the gateway
import { execFileSync, spawn } from "node:child_process";
import net from "node:net";

const argv = process.argv.slice(2);
const split = argv.indexOf("--");
const own = argv.slice(0, split);
const command = argv.slice(split + 1);
const values = (name) => own.flatMap((a, i) => (a === name ? [own[i + 1]] : []));

function relay(listenOn, connectTo) {
  const server = net.createServer((client) => {
    const upstream = net.connect(connectTo);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end);
    upstream.on("error", end);
    client.on("close", end);
    upstream.on("close", end);
  });
  server.listen(listenOn);
  return server;
}

try {
  execFileSync(values("--ip")[0] ?? "ip", ["link", "set", "lo", "up"], { stdio: "inherit" });
} catch (error) {
  console.error(`netns-relay: cannot bring up loopback: ${error.message}`);
  process.exit(70);
}
for (const spec of values("--egress")) {
  const at = spec.indexOf(":");
  relay({ host: "127.0.0.1", port: Number(spec.slice(0, at)) }, { path: spec.slice(at + 1) });
}
for (const spec of values("--ingress")) {
  const at = spec.lastIndexOf(":");
  relay({ path: spec.slice(0, at) }, { host: "127.0.0.1", port: Number(spec.slice(at + 1)) });
}
console.log(`netns-relay: pid ${process.pid}, loopback up, starting ${command[0]}`);
const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  console.error(`netns-relay: cannot start ${command[0]}: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});
