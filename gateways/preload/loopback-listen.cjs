// Loaded with `node --require` in front of gateways that listen on every interface and
// offer no flag to choose (Portkey 1.15.2 calls serve({ port }) with no host). It rewrites
// every TCP listen() to 127.0.0.1 so a gateway under test is never reachable from the
// network. Unix-socket and fd listens are left alone.
"use strict";
const net = require("node:net");

const LOOPBACK = "127.0.0.1";
const originalListen = net.Server.prototype.listen;

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const first = args[0];
  if (first !== null && typeof first === "object" && !Array.isArray(first)) {
    // listen({ port, host, ... }): keep everything but the host.
    if (first.path === undefined && first.fd === undefined && first.handle === undefined) {
      args[0] = { ...first, host: LOOPBACK };
    }
  } else if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    // listen(port[, host][, backlog][, cb]): replace or insert the host.
    if (typeof args[1] === "string") args[1] = LOOPBACK;
    else args.splice(1, 0, LOOPBACK);
  }
  return originalListen.apply(this, args);
};
