import type { Command } from "commander";

/** One entry per subcommand file; each registers itself on the program. */
export type RegisterCommand = (program: Command) => void;

/**
 * Each subcommand's module, loaded only when needed: through tsx, loading every command's
 * imports (the sweep's pulls in the gateways, the mock and both client SDKs) took ~2 s before
 * any command ran; `check` alone loads in ~0.6 s (docs/architecture.md, "The CLI"). Listed in help order.
 */
export const COMMAND_MODULES: Readonly<Record<string, () => Promise<RegisterCommand>>> = {
  sweep: async () => (await import("./sweep.ts")).registerSweep,
  rescore: async () => (await import("./rescore.ts")).registerRescore,
  gateways: async () => (await import("./gateways.ts")).registerGateways,
  query: async () => (await import("./query.ts")).registerQuery,
  report: async () => (await import("./report.ts")).registerReport,
  serve: async () => (await import("./serve.ts")).registerServe,
  diff: async () => (await import("./diff.ts")).registerDiff,
  merge: async () => (await import("./merge.ts")).registerMerge,
  mock: async () => (await import("./mock.ts")).registerMock,
  probes: async () => (await import("./probes.ts")).registerProbes,
  check: async () => (await import("./check.ts")).registerCheck,
  export: async () => (await import("./export.ts")).registerExport,
};

/**
 * The commands to register for a command line (the arguments after the script): the one it
 * names, or every one when it names none it knows (`--help`, `help sweep`, a typo), so the
 * help and the unknown-command message are the same as with all of them loaded.
 */
export async function commandsFor(args: readonly string[]): Promise<RegisterCommand[]> {
  const name = args.find((arg) => !arg.startsWith("-"));
  const named = name === undefined ? undefined : COMMAND_MODULES[name];
  const loaders = named ? [named] : Object.values(COMMAND_MODULES);
  return Promise.all(loaders.map((load) => load()));
}
