/**
 * The longest wait gatecheck accepts anywhere, in milliseconds: Node's timers hold at most
 * 2^31-1 ms (about 24.8 days) and fire a longer delay at once, with only a warning
 * (https://nodejs.org/api/timers.html#settimeoutcallback-delay-args). Every duration a CLI
 * flag or a staged reply takes is refused above it, never shortened to nothing. Here, in the
 * mock's room, because the mock must stay usable alone and the CLI may import it.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** The bound in words, for the messages that refuse a longer wait. */
export const MAX_DURATION_TEXT = `${MAX_DURATION_MS} ms (about 24.8 days)`;
