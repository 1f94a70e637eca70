/**
 * The TCP sockets a process listens on, read from /proc (Linux): for each, the address, the
 * port, and the interfaces of the network namespace it lives in. A socket is exposed when it
 * listens beyond loopback in a namespace that has an interface other than `lo`: a gateway
 * confined to a namespace of its own may bind 0.0.0.0 there and still reach nobody.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface ListeningSocket {
  pid: number;
  address: string;
  port: number;
  /** Interfaces of the socket's network namespace (`lo` alone: confined). */
  interfaces: string[];
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match?.[1]) inodes.add(match[1]);
    } catch {
      // closed while we looked
    }
  }
  return inodes;
}

/** `0100007F:1F90` (tcp) or a 32-digit tcp6 address, to text. */
function decodeAddress(hex: string): string {
  if (hex.length === 8) {
    const bytes = hex.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? [];
    return bytes.reverse().join(".");
  }
  // tcp6: four 32-bit words, each little-endian.
  const words = hex.match(/.{8}/g) ?? [];
  const groups = words.flatMap((w) => {
    const le = (w.match(/../g) ?? []).reverse().join("");
    return [le.slice(0, 4), le.slice(4, 8)];
  });
  const text = groups.map((g) => Number.parseInt(g, 16).toString(16)).join(":");
  if (text === "0:0:0:0:0:0:0:0") return "::";
  if (text === "0:0:0:0:0:0:0:1") return "::1";
  const v4mapped = /^0:0:0:0:0:ffff:([0-9a-f]+):([0-9a-f]+)$/.exec(text);
  if (v4mapped) {
    const n =
      (Number.parseInt(v4mapped[1] ?? "0", 16) << 16) | Number.parseInt(v4mapped[2] ?? "0", 16);
    return `::ffff:${[24, 16, 8, 0].map((s) => (n >>> s) & 255).join(".")}`;
  }
  return text;
}

function interfacesOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/net/dev`, "utf8")
      .split("\n")
      .slice(2)
      .map((l) => l.split(":")[0]?.trim() ?? "")
      .filter(Boolean);
  } catch {
    return [];
  }
}

export function listeningSockets(pid: number): ListeningSocket[] {
  const inodes = socketInodes(pid);
  if (inodes.size === 0) return [];
  const interfaces = interfacesOf(pid);
  const out: ListeningSocket[] = [];
  for (const table of ["tcp", "tcp6"]) {
    let text = "";
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
      if (f[3] !== "0A" || !inodes.has(f[9] ?? "")) continue;
      const [addr = "", port = "0"] = (f[1] ?? "").split(":");
      out.push({ pid, address: decodeAddress(addr), port: Number.parseInt(port, 16), interfaces });
    }
  }
  return out;
}

export function isLoopbackAddress(address: string): boolean {
  return /^127\./.test(address) || address === "::1" || /^::ffff:127\./.test(address);
}

/** Sockets reachable beyond this machine's loopback. */
export function exposedSockets(sockets: readonly ListeningSocket[]): ListeningSocket[] {
  return sockets.filter(
    (s) => !isLoopbackAddress(s.address) && s.interfaces.some((i) => i !== "lo"),
  );
}
