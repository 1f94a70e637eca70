/**
 * The Messages agent (`@anthropic-ai/sdk`): the task with a tool; the assistant turn sent
 * back with the content blocks exactly as received (thinking blocks and their signatures
 * first, as Anthropic requires in a tool loop); the results in one user message,
 * `tool_result` blocks first, then the system note as a text block where the variant has one.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
 */
import Anthropic from "@anthropic-ai/sdk";
import type { AgentIo, AgentRun, SeenCall } from "./agent.ts";
import { sdkClientOptions, sdkErrorMessage } from "./agent.ts";
import {
  LOOP_TOOL,
  type LoopVariant,
  REASONING_REQUEST,
  SYSTEM_NOTE,
  toolResultText,
} from "./loop-script.ts";

const TOOLS: Anthropic.Tool[] = [
  {
    name: LOOP_TOOL.name,
    description: LOOP_TOOL.description,
    input_schema: LOOP_TOOL.schema as unknown as Anthropic.Tool.InputSchema,
  },
];
const MAX_TOKENS = 1024;

export async function messagesAgent(
  io: AgentIo,
  variant: LoopVariant,
  task: string,
): Promise<AgentRun> {
  const client = new Anthropic(sdkClientOptions(io));
  const history: Anthropic.MessageParam[] = [{ role: "user", content: task }];
  // Thinking on for the whole turn (Anthropic: one thinking configuration per assistant turn).
  const reasoning = variant.reasoning ? REASONING_REQUEST["anthropic-messages"] : {};
  let first: Anthropic.Message;
  try {
    first = await client.messages.create({
      model: io.model,
      max_tokens: MAX_TOKENS,
      messages: history,
      tools: TOOLS,
      ...reasoning,
    });
  } catch (error) {
    return { error: { request: 1, message: sdkErrorMessage(error) } };
  }
  const uses = (first.content ?? []).flatMap((b) => (b.type === "tool_use" ? [b] : []));
  const calls: SeenCall[] = uses.map((u) => ({ id: u.id, name: u.name, arguments: u.input }));
  if (calls.length === 0) return { calls };
  const results: Anthropic.ContentBlockParam[] = uses.map((u, i) => ({
    type: "tool_result",
    tool_use_id: u.id,
    content: toolResultText(variant, i),
    ...(variant.errorResult ? { is_error: true } : {}),
  }));
  const echo: Anthropic.MessageParam[] = [
    ...history,
    { role: "assistant", content: first.content as Anthropic.ContentBlockParam[] },
    {
      role: "user",
      content: variant.systemNote ? [...results, { type: "text", text: SYSTEM_NOTE }] : results,
    },
  ];
  try {
    const second = await client.messages.create({
      model: io.model,
      max_tokens: MAX_TOKENS,
      messages: echo,
      tools: TOOLS,
      ...reasoning,
    });
    const text = (second.content ?? []).flatMap((b) => (b.type === "text" ? [b.text] : []));
    return { calls, ...(text.length > 0 ? { finalText: text.join("") } : {}) };
  } catch (error) {
    return { calls, error: { request: 2, message: sdkErrorMessage(error) } };
  }
}
