/**
 * Prefixing the first user text of a request body in place, for the dialects whose turns
 * are `messages` (or Responses `input`, Gemini `contents`): where a probe's nonce goes. False
 * when the body has no user text to carry it.
 */
import { asArray, asString, isRecord, type JsonRecord } from "./json.ts";

/**
 * The first user message of `turns` (a role, and for Responses items no other `type` than
 * `message`), its `content` string or first text part of `textTypes` prefixed.
 */
export function prefixFirstUserMessage(
  turns: unknown,
  prefix: string,
  textTypes: readonly string[],
  contentKey = "content",
): boolean {
  const user = asArray(turns)?.find(
    (m) => isRecord(m) && m.role === "user" && (m.type === undefined || m.type === "message"),
  );
  if (!isRecord(user)) return false;
  const content = user[contentKey];
  if (typeof content === "string") {
    user[contentKey] = `${prefix} ${content}`;
    return true;
  }
  const part = asArray(content)?.find(
    (p) =>
      isRecord(p) &&
      (p.type === undefined ? textTypes.includes("") : textTypes.includes(String(p.type))) &&
      asString(p.text) !== undefined,
  );
  if (!isRecord(part)) return false;
  part.text = `${prefix} ${String(part.text)}`;
  return true;
}

/** Chat, Messages and Ollama: the first user message in `messages`. */
export function prefixInMessages(body: JsonRecord, prefix: string): boolean {
  return prefixFirstUserMessage(body.messages, prefix, ["text"]);
}
