/**
 * Which downstream messages stand for which client messages, by speaker and position, so
 * that a client turn the gateway kept but emptied (`{"role":"assistant","content":[]}`) is
 * told apart from an empty message the gateway added. The first is the client's turn with
 * its content lost; only the second is invented.
 */
import type { Message } from "../../dialects/canonical.ts";

type Speaker = "system" | "user" | "assistant";

/** Tool results speak in the user's turn (Anthropic and Gemini put them in user messages). */
function speaker(message: Message): Speaker {
  if (message.role === "assistant") return "assistant";
  return message.role === "system" || message.role === "developer" ? "system" : "user";
}

/** A message with nothing in it: no parts, or only blank text. */
export function isEmptyMessage(message: Message): boolean {
  return message.parts.every((p) => p.type === "text" && p.text.trim() === "");
}

export interface EmptiedTurn {
  /** Position of the client's message in the conversation (0-based). */
  sentIndex: number;
  sent: Message;
}

/**
 * Client messages with content that the downstream conversation holds only as an empty
 * message of the same speaker, at the same place in the order.
 *
 * Messages are paired by speaker in order (a longest common subsequence). A pair of an
 * empty downstream message with a client message that had content scores less than any
 * other pair, so an empty message the gateway slipped in beside the client's own turn is
 * left unpaired (and stays invented) rather than taken for that turn.
 */
export function emptiedTurns(sent: readonly Message[], got: readonly Message[]): EmptiedTurn[] {
  const n = sent.length;
  const m = got.length;
  const pairing: Pairing = {
    sentSpeakers: sent.map(speaker),
    gotSpeakers: got.map(speaker),
    sentEmpty: sent.map(isEmptyMessage),
    gotEmpty: got.map(isEmptyMessage),
    width: m + 1,
    // best[i * width + j]: the best score pairing sent[i..] with got[j..] (0 past either end).
    best: new Array<number>((n + 1) * (m + 1)).fill(0),
  };
  const { best, width } = pairing;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const w = weight(pairing, i, j);
      best[i * width + j] = Math.max(
        score(pairing, i + 1, j),
        score(pairing, i, j + 1),
        w > 0 ? w + score(pairing, i + 1, j + 1) : 0,
      );
    }
  }
  const out: EmptiedTurn[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const w = weight(pairing, i, j);
    if (w > 0 && score(pairing, i, j) === w + score(pairing, i + 1, j + 1)) {
      if (w === 1) out.push({ sentIndex: i, sent: sent[i] as Message });
      i++;
      j++;
    } else if (score(pairing, i, j) === score(pairing, i + 1, j)) {
      i++;
    } else {
      j++;
    }
  }
  return out;
}

/** The pairing's inputs and score table, which the helpers below take as their argument. */
interface Pairing {
  sentSpeakers: Speaker[];
  gotSpeakers: Speaker[];
  sentEmpty: boolean[];
  gotEmpty: boolean[];
  width: number;
  best: number[];
}

/** 2 for a pair of one speaker, 1 for an empty downstream message against content, else 0. */
function weight(p: Pairing, i: number, j: number): number {
  if (p.sentSpeakers[i] !== p.gotSpeakers[j]) return 0;
  return p.gotEmpty[j] && !p.sentEmpty[i] ? 1 : 2;
}

function score(p: Pairing, i: number, j: number): number {
  return p.best[i * p.width + j] ?? 0;
}
