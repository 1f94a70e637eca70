/**
 * The Responses agent (`openai`): the task with a function tool; the whole `output` of the
 * first response appended to the input (reasoning items with their `encrypted_content`, the
 * function calls), then one `function_call_output` per call, as OpenAI's guide shows.
 * @see https://platform.openai.com/docs/guides/function-calling?api-mode=responses
 */
import OpenAI from "openai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { AgentIo, AgentRun, SeenCall } from "./agent.ts";
import { parsedArguments, sdkClientOptions, sdkErrorMessage } from "./agent.ts";
import {
  LOOP_TOOL,
  type LoopVariant,
  REASONING_REQUEST,
  SYSTEM_NOTE,
  toolResultText,
} from "./loop-script.ts";

const TOOLS: OpenAI.Responses.Tool[] = [
  {
    type: "function",
    name: LOOP_TOOL.name,
    description: LOOP_TOOL.description,
    parameters: LOOP_TOOL.schema as unknown as Record<string, unknown>,
    strict: false,
  },
];

export async function responsesAgent(
  io: AgentIo,
  variant: LoopVariant,
  task: string,
): Promise<AgentRun> {
  const client = new OpenAI(sdkClientOptions(io, "/v1"));
  const input: ResponseInputItem[] = [{ role: "user", content: task }];
  const reasoning = variant.reasoning ? REASONING_REQUEST["openai-responses"] : {};
  let first: OpenAI.Responses.Response;
  try {
    first = await client.responses.create({ model: io.model, input, tools: TOOLS, ...reasoning });
  } catch (error) {
    return { error: { request: 1, message: sdkErrorMessage(error) } };
  }
  const output = first.output ?? [];
  const fnCalls = output.flatMap((item) => (item.type === "function_call" ? [item] : []));
  const calls: SeenCall[] = fnCalls.map((c) => ({
    id: c.call_id,
    name: c.name,
    arguments: parsedArguments(c.arguments),
  }));
  if (calls.length === 0) return { calls };
  const echo: ResponseInputItem[] = [
    ...input,
    ...(output as ResponseInputItem[]),
    ...(variant.systemNote ? [{ role: "system" as const, content: SYSTEM_NOTE }] : []),
    ...fnCalls.map((c, i) => ({
      type: "function_call_output" as const,
      call_id: c.call_id,
      output: toolResultText(variant, i),
    })),
  ];
  try {
    const second = await client.responses.create({
      model: io.model,
      input: echo,
      tools: TOOLS,
      ...reasoning,
    });
    const text = second.output_text;
    return { calls, ...(typeof text === "string" && text !== "" ? { finalText: text } : {}) };
  } catch (error) {
    return { calls, error: { request: 2, message: sdkErrorMessage(error) } };
  }
}
