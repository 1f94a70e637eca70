import type { Command } from "commander";

/** One entry per subcommand file; each registers itself on the program. */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [];
