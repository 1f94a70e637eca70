/** Exit codes shared by every command; the README's table is generated from the same meaning. */
export const EXIT = {
  /** The command did its job (a sweep that found defects still exits 0). */
  ok: 0,
  /** The command ran and its check failed: a diff regression, a failed doctor, a probe self-check failure. */
  failed: 1,
  /** Unusable input: bad flag, unreadable or invalid file, malformed JSON. Nothing was changed. */
  usage: 2,
  /** Interrupted by SIGINT/SIGTERM after writing what was done. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Thrown by command actions to end with a message and an exit code, never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.usage,
  ) {
    super(message);
    this.name = "CliError";
  }
}
