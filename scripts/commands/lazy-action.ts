/**
 * A command's action whose module loads only when the command runs: registering every
 * command (for `--help`) then loads names and options, not the sweep's gateways, the mock or
 * the lens (docs/architecture.md, "The CLI").
 */
export function lazyAction<A extends unknown[]>(
  load: () => Promise<(...args: A) => unknown>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const action = await load();
    await action(...args);
  };
}
