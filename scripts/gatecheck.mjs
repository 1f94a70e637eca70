#!/usr/bin/env node
// The CLI runs the TypeScript sources directly (tsx), so `npx gatecheck` works
// right after `npm ci` with no build step that could go stale.
import { register } from "tsx/esm/api";

register();
await import("./cli.ts");
