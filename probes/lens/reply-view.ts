/**
 * A reply's parts sorted by kind, and its visible text, worked out once per reply: the reply
 * judges ask for the text, the calls, the thinking of both replies a dozen times per exchange,
 * and each ask filtered the parts again (docs/lens.md, Round 4). Read-only: callers never
 * change the lists they are given.
 */

import type { CanonicalReply, Part } from "../../dialects/canonical.ts";
import { RecentByIdentity } from "./recent-by-identity.ts";

type ViewedType = "text" | "tool-call" | "thinking" | "reasoning" | "refusal";
export type PartOf<T extends Part["type"]> = Extract<Part, { type: T }>;

interface ReplyView {
  text: PartOf<"text">[];
  "tool-call": PartOf<"tool-call">[];
  thinking: PartOf<"thinking">[];
  reasoning: PartOf<"reasoning">[];
  refusal: PartOf<"refusal">[];
  /** The text parts joined: what a reader of the reply sees. */
  visible: string;
}

function buildView(reply: CanonicalReply): ReplyView {
  const v: ReplyView = {
    text: [],
    "tool-call": [],
    thinking: [],
    reasoning: [],
    refusal: [],
    visible: "",
  };
  for (const p of reply.parts) {
    switch (p.type) {
      case "text":
        v.text.push(p);
        v.visible += p.text;
        break;
      case "tool-call":
        v["tool-call"].push(p);
        break;
      case "thinking":
        v.thinking.push(p);
        break;
      case "reasoning":
        v.reasoning.push(p);
        break;
      case "refusal":
        v.refusal.push(p);
        break;
      default:
        break;
    }
  }
  return v;
}

/** An exchange has two replies (upstream and client): see recent-by-identity.ts. */
const views = new RecentByIdentity(buildView);

/** The reply's parts of one kind, in order. */
export function replyPartsOf<T extends ViewedType>(
  reply: CanonicalReply,
  type: T,
): readonly PartOf<T>[] {
  return views.get(reply)[type] as PartOf<T>[];
}

/** The reply's text parts joined. */
export function replyVisibleText(reply: CanonicalReply): string {
  return views.get(reply).visible;
}
