/**
 * The Chat Completions agent (`openai`): the task with a tool; the assistant message appended
 * to the history exactly as the SDK returned it (so `reasoning_content` and any field a
 * gateway added go back, as DeepSeek's guide tells agents to do); one `tool` message per call.
 * @see https://api-docs.deepseek.com/guides/thinking_mode#tool-calls
 */
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { AgentIo, AgentRun, SeenCall } from "./agent.ts";
import { parsedArguments, sdkClientOptions, sdkErrorMessage } from "./agent.ts";
import {
  LOOP_TOOL,
  type LoopVariant,
  REASONING_REQUEST,
  SYSTEM_NOTE,
  toolResultText,
} from "./loop-script.ts";

const TOOLS = [
  {
    type: "function" as const,
    function: {
      name: LOOP_TOOL.name,
      description: LOOP_TOOL.description,
      parameters: LOOP_TOOL.schema,
    },
  },
];

export async function chatAgent(
  io: AgentIo,
  variant: LoopVariant,
  task: string,
): Promise<AgentRun> {
  const client = new OpenAI(sdkClientOptions(io, "/v1"));
  const history: ChatCompletionMessageParam[] = [{ role: "user", content: task }];
  const reasoning = variant.reasoning ? REASONING_REQUEST["openai-chat"] : {};
  let first: OpenAI.ChatCompletion;
  try {
    first = await client.chat.completions.create({
      model: io.model,
      messages: history,
      tools: TOOLS,
      ...reasoning,
    });
  } catch (error) {
    return { error: { request: 1, message: sdkErrorMessage(error) } };
  }
  const message = first.choices?.[0]?.message;
  const toolCalls = (message?.tool_calls ?? []).flatMap((c) => (c.type === "function" ? [c] : []));
  const calls: SeenCall[] = toolCalls.map((c) => ({
    id: c.id,
    name: c.function.name,
    arguments: parsedArguments(c.function.arguments),
  }));
  if (!message || calls.length === 0) return { calls };
  const echo: ChatCompletionMessageParam[] = [
    ...history,
    message as ChatCompletionMessageParam,
    ...(variant.systemNote ? [{ role: "system" as const, content: SYSTEM_NOTE }] : []),
    ...toolCalls.map((c, i) => ({
      role: "tool" as const,
      tool_call_id: c.id,
      content: toolResultText(variant, i),
    })),
  ];
  try {
    const second = await client.chat.completions.create({
      model: io.model,
      messages: echo,
      tools: TOOLS,
      ...reasoning,
    });
    const text = second.choices?.[0]?.message?.content;
    return { calls, ...(typeof text === "string" ? { finalText: text } : {}) };
  } catch (error) {
    return { calls, error: { request: 2, message: sdkErrorMessage(error) } };
  }
}
