/**
 * The agent of a loop: an official SDK client driven as an agent's code drives it. Each
 * client dialect has one (agent-*.ts); all share this contract. An agent never throws: what
 * its SDK raised is kept with the turn it happened at, for the judge (judge-loop.ts).
 */
import type { ClientDialect } from "../dialects/dialect.ts";
import { messagesAgent } from "./agent-anthropic-messages.ts";
import { chatAgent } from "./agent-openai-chat.ts";
import { responsesAgent } from "./agent-openai-responses.ts";
import type { LoopVariant } from "./loop-script.ts";

export interface AgentIo {
  fetch: typeof fetch;
  /** The route's headers (routing, the key where the route wants it). */
  headers: Record<string, string>;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

/** A tool call as the agent received it (arguments parsed as agent code parses them). */
export interface SeenCall {
  id: string;
  name: string;
  arguments: unknown;
}

export interface AgentRun {
  /** The tool calls the agent got at turn 1 (absent when turn 1 failed). */
  calls?: SeenCall[];
  /** The final text the agent got after sending the results. */
  finalText?: string;
  /** What the SDK raised, and at which request (1: the task, 2: the echo). */
  error?: { request: 1 | 2; message: string };
}

export type LoopAgent = (io: AgentIo, variant: LoopVariant, task: string) => Promise<AgentRun>;

export const AGENTS: Readonly<Record<ClientDialect, LoopAgent>> = {
  "openai-chat": chatAgent,
  "openai-responses": responsesAgent,
  "anthropic-messages": messagesAgent,
};

/** The SDK's message, with the status it saw where it has one. */
export function sdkErrorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { status?: unknown }).status;
  return typeof status === "number" && !error.message.startsWith(String(status))
    ? `${status} ${error.message}`
    : error.message;
}

/** Agent code parses the arguments string; one that does not parse stays a string. */
export function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** No base URL is reached: recording-fetch.ts sends every call to the route's ingress. */
const SDK_BASE_URL = "http://gateway.gatecheck.invalid";

/**
 * The options every agent's SDK client is built with (the `openai` and `@anthropic-ai/sdk`
 * clients take the same names): the recording fetch, the route's headers as default headers,
 * and no retries (a retry would take the next staged answer). `basePath` is what the SDK
 * expects after the host (`/v1` for `openai`, nothing for Anthropic's).
 */
export function sdkClientOptions(io: AgentIo, basePath = "") {
  return {
    apiKey: io.apiKey,
    baseURL: `${SDK_BASE_URL}${basePath}`,
    fetch: io.fetch,
    maxRetries: 0,
    timeout: io.timeoutMs,
    defaultHeaders: io.headers,
  };
}
