/**
 * A guard against DNS rebinding: a web page on `evil.example` whose name is made to resolve
 * to 127.0.0.1 can make a browser send requests to a server on loopback, with
 * `Host: evil.example:9990`. A server bound to loopback answers only requests whose `Host`
 * names loopback or the address it listens on; the control API (staging replies, reading
 * records) and `serve`'s pages are then out of such a page's reach. Bound to any other
 * address the server is reachable from the network anyway, so the guard cannot tell good
 * names from bad: it is off, and the command warns.
 * @see https://en.wikipedia.org/wiki/DNS_rebinding
 */
import { isIP } from "node:net";

/** Whether an address is on the loopback interface (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const name = bare.toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  return name === "::1" || name === "0:0:0:0:0:0:0:1" || name === "::ffff:127.0.0.1";
}

/** The host name of a `Host` header value, without its port (IPv6 in brackets kept bare). */
export function hostName(value: string): string {
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end < 0 ? value : value.slice(1, end);
  }
  const colon = value.lastIndexOf(":");
  return colon < 0 ? value : value.slice(0, colon);
}

/**
 * Undefined when the request may be served, else why not. `listenHost` is the address the
 * server is bound to; a request without `Host` (HTTP/1.0) passes.
 */
export function hostProblem(
  listenHost: string,
  hostHeader: string | undefined,
): string | undefined {
  if (!isLoopback(listenHost) || hostHeader === undefined) return undefined;
  // A client sends the same Host all run long: the last pair's answer is remembered.
  if (hostHeader === last.header && listenHost === last.listen) return last.problem;
  last.header = hostHeader;
  last.listen = listenHost;
  last.problem = judgeHost(listenHost, hostHeader);
  return last.problem;
}

const last: { header?: string; listen?: string; problem?: string } = {};

function judgeHost(listenHost: string, hostHeader: string): string | undefined {
  const name = hostName(hostHeader.trim()).toLowerCase();
  if (isLoopback(name) || name === hostName(listenHost).toLowerCase()) return undefined;
  return `Host ${JSON.stringify(hostHeader)} is not this server's address (${listenHost}); a request through another name is refused to keep web pages out (DNS rebinding)`;
}

/** The warning a command prints when told to listen beyond loopback. */
export function exposedWarning(command: string, host: string): string | undefined {
  if (isLoopback(host)) return undefined;
  return `warning: gatecheck ${command} listens on ${host}, beyond loopback: anyone who can reach this address can use it, and the Host check against DNS rebinding is off`;
}
