/**
 * JSON held inside a JSON string. OpenAI's Chat Completions and Responses carry a tool call's
 * arguments as a string of JSON (`"arguments": "{\"city\":\"Paris\"}"`,
 * https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages), and
 * agents pass secrets to tools there (`{"password": ...}`, `{"api_key": ...}`). A reader of
 * a stored body parses those strings too, so redaction looks inside them as it looks inside
 * the body.
 */

/** Only text that opens like an object or array is parsed: most strings are prose. */
const OPENS_LIKE_JSON = /^\s*[[{]/;

/** Whether a string opens like a JSON object or array (whitespace allowed before). */
export function opensLikeJson(text: string): boolean {
  const first = text.charCodeAt(0);
  // `{` and `[` decide at once; only text opening with whitespace pays the regex.
  return first === 0x7b || first === 0x5b || (first <= 0x20 && OPENS_LIKE_JSON.test(text));
}

/** The object or array a string holds as JSON, or undefined when it holds none. */
export function embeddedJson(text: string): object | undefined {
  if (!opensLikeJson(text)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" ? parsed : undefined;
  } catch {
    return undefined;
  }
}
