import type { Command } from "commander";
import { registerCheck } from "./check.ts";
import { registerDiff } from "./diff.ts";
import { registerExport } from "./export.ts";
import { registerGateways } from "./gateways.ts";
import { registerMerge } from "./merge.ts";
import { registerMock } from "./mock.ts";
import { registerProbes } from "./probes.ts";
import { registerPrune } from "./prune.ts";
import { registerQuery } from "./query.ts";
import { registerReport } from "./report.ts";
import { registerRescore } from "./rescore.ts";
import { registerServe } from "./serve.ts";
import { registerSweep } from "./sweep.ts";

/** One entry per subcommand file; each registers itself on the program. */
export type RegisterCommand = (program: Command) => void;

/**
 * Every subcommand, in help order. A command's file says what it is (name, arguments,
 * options, help) and imports almost nothing; its action's module loads only when it runs
 * (lazy-action.ts), which keeps the bundle's start near 0.15 s of CPU against ~0.4 s with
 * every action loaded (docs/architecture.md, "The CLI").
 */
export const COMMANDS: readonly RegisterCommand[] = [
  registerSweep,
  registerRescore,
  registerGateways,
  registerQuery,
  registerReport,
  registerServe,
  registerDiff,
  registerMerge,
  registerPrune,
  registerMock,
  registerProbes,
  registerCheck,
  registerExport,
];
