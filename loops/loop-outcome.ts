/**
 * What one agent loop came to: `completed`, or `broke` at the turn where the agent would
 * have seen its run fail or go wrong, with the cause and the evidence a reader can check.
 *
 * Turns: 1 is the task (the agent's request with tools, the tool calls it gets back); 2 is
 * the echo (the agent sends the calls and their results back; what reaches the backend is
 * judged against what the backend said at turn 1); 3 is the final answer reaching the agent.
 */

export const LOOP_CAUSES = [
  /** The gateway answered an error itself (nothing of that turn reached the backend). */
  "gateway-error",
  /** A strict provider persona rejected what the gateway forwarded. */
  "strict-provider",
  /** The connection failed or timed out. */
  "transport-error",
  /** The backend answered 2xx but the agent's SDK refused or could not read the reply. */
  "sdk-rejected",
  /** The tool calls the agent got are not the backend's: missing, extra, renamed, arguments changed. */
  "tool-call-mangled",
  /** A tool result reached the backend under an id the backend never issued (or none). */
  "id-lost",
  /** A tool result reached the backend without its content, out of order or under another name. */
  "result-lost",
  /** A thinking signature or Gemini thoughtSignature did not come back to the backend as it was sent. */
  "signature-lost",
  /** The final answer the agent got is not the backend's. */
  "final-text-mismatch",
  /** A second client's request reached the backend with the first client's key. */
  "credential-stuck",
] as const;
export type LoopCause = (typeof LOOP_CAUSES)[number];

export type LoopTurn = 1 | 2 | 3;

export type LoopOutcome =
  | {
      status: "completed";
      /** Cross-turn losses that did not break this loop (reasoning text not echoed upstream). */
      losses: string[];
    }
  | {
      status: "broke";
      turn: LoopTurn;
      cause: LoopCause;
      /** One or two sentences a reader can check against the evidence. */
      reason: string;
      losses: string[];
    };

export function completed(losses: string[] = []): LoopOutcome {
  return { status: "completed", losses };
}

export function broke(
  turn: LoopTurn,
  cause: LoopCause,
  reason: string,
  losses: string[] = [],
): LoopOutcome {
  return { status: "broke", turn, cause, reason, losses };
}

/** `completed` or `broke at turn 2: id-lost`: the words the matrix uses. */
export function outcomeLabel(outcome: LoopOutcome): string {
  return outcome.status === "completed"
    ? "completed"
    : `broke at turn ${outcome.turn}: ${outcome.cause}`;
}
