/**
 * What a tool choice means, in one form, so that two dialects' spellings of the same choice
 * compare equal. An allowed set of one tool that must be called is that tool forced (Gemini
 * writes both as `mode: ANY` with one allowed name, Anthropic has only the forced form); an
 * allowed set is a set, so its order means nothing.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice
 * @see https://ai.google.dev/api/caching#FunctionCallingConfig
 */
import type { ToolChoice } from "./canonical.ts";

export function toolChoiceMeaning(choice: ToolChoice): ToolChoice {
  if (choice.mode !== "allowed") return choice;
  const names = [...new Set(choice.names)].sort();
  const only = names[0];
  if (choice.within === "required" && names.length === 1 && only !== undefined) {
    return { mode: "tool", name: only };
  }
  return { mode: "allowed", within: choice.within, names };
}
