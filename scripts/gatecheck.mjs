#!/usr/bin/env node
// The CLI runs from its esbuild bundle (scripts/cli-bundle.mjs), built by `npm ci` and
// again here whenever a source changed since, so no start pays for compiling TypeScript and
// none runs stale code.
import { cliBundle } from "./cli-bundle.mjs";

await import(await cliBundle());
