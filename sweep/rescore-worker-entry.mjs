// The rescore worker's entry: a worker thread starts with a bare module loader, so it
// registers tsx (as scripts/gatecheck.mjs does for the CLI) before loading our TypeScript.
import { register } from "tsx/esm/api";

register();
await import("./rescore-worker.ts");
