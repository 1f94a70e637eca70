/**
 * The canonical model: one shape for a request and one for a reply, whatever
 * the dialect. Readers (wire -> canonical) and writers (canonical -> wire) meet here,
 * and the lens compares two canonical values field by field.
 *
 * Rules every reader follows:
 * - Values are kept as sent (0.3 stays 0.3, a stop string stays one string in an array).
 * - A field the wire did not carry is `undefined`, never a default.
 * - Keys the reader does not understand go to `extras` raw, never discarded.
 * - Tool-call arguments stay the raw string the wire carried (Anthropic/Gemini objects
 *   are serialized with JSON.stringify), so "{}" vs "" vs '{"a":1}' is visible.
 */
import type { Dialect } from "./dialect.ts";

/** Anthropic-style prompt cache marker (`cache_control`); `raw` keeps the object as sent. */
export interface CacheMarker {
  type: string;
  ttl?: string;
  raw: unknown;
}

export type MediaSource =
  | { kind: "base64"; mediaType?: string; data: string }
  | { kind: "url"; url: string; mediaType?: string }
  | { kind: "file-id"; fileId: string }
  /** A document given as its plain text (Anthropic `source: {type: "text", data}`). */
  | { kind: "text"; mediaType?: string; data: string };

export type Part =
  | { type: "text"; text: string; cache?: CacheMarker; extras?: Record<string, unknown> }
  | {
      type: "image";
      source: MediaSource;
      detail?: string;
      cache?: CacheMarker;
      /** Keys beside the image the dialect does not define, kept raw (the image still reads). */
      extras?: Record<string, unknown>;
    }
  | {
      type: "document";
      source: MediaSource;
      title?: string;
      cache?: CacheMarker;
      extras?: Record<string, unknown>;
    }
  | { type: "audio"; source: MediaSource; format?: string; extras?: Record<string, unknown> }
  | {
      type: "tool-call";
      id: string;
      name: string;
      /** Raw argument string as carried on the wire (objects are JSON.stringify'd). */
      arguments: string;
      /** Gemini thoughtSignature or similar opaque token riding on the call. */
      signature?: string;
      cache?: CacheMarker;
      extras?: Record<string, unknown>;
    }
  | {
      type: "tool-result";
      callId: string;
      content: Part[];
      isError?: boolean;
      name?: string;
      cache?: CacheMarker;
      extras?: Record<string, unknown>;
    }
  /** Private reasoning with its signature (Anthropic thinking, Gemini thought parts). */
  | {
      type: "thinking";
      text: string;
      signature?: string;
      redacted?: boolean;
      extras?: Record<string, unknown>;
    }
  /** Reasoning text carried beside content (DeepSeek/Moonshot `reasoning_content`, Ollama `thinking`). */
  | { type: "reasoning"; text: string }
  | { type: "refusal"; text: string; extras?: Record<string, unknown> }
  /** A part the reader does not understand, kept whole. */
  | { type: "unknown"; raw: unknown };

export type PartType = Part["type"];

export type Role = "system" | "developer" | "user" | "assistant" | "tool";

export interface Message {
  role: Role;
  parts: Part[];
  name?: string;
  /** Per-message keys the reader does not map (kept raw). */
  extras?: Record<string, unknown>;
}

export interface Tool {
  name: string;
  description?: string;
  /** JSON schema of the parameters, as sent. */
  schema?: unknown;
  strict?: boolean;
  /** "function" for ordinary tools; server tools keep their own type (e.g. "web_search_20250305"). */
  kind: string;
  cache?: CacheMarker;
  extras?: Record<string, unknown>;
}

/**
 * A remote MCP server the provider connects to itself (Anthropic `mcp_servers[]`, Responses
 * `tools[{type: "mcp"}]`).
 */
export interface McpServer {
  /** Anthropic `name`, Responses `server_label`. */
  name: string;
  /** Anthropic `url`, Responses `server_url`. */
  url: string;
  /** Anthropic `authorization_token`, Responses `authorization` (an OAuth access token). */
  authorization?: string;
  /** The tools the model may use (Anthropic `tool_configuration.allowed_tools`, Responses `allowed_tools` as names). */
  allowedTools?: string[];
  /** Keys beside these, kept raw (written back to the same dialect only). */
  extras?: Record<string, unknown>;
}

export type ToolChoice =
  | { mode: "auto" }
  | { mode: "none" }
  /** Chat "required", Anthropic "any", Gemini mode ANY. */
  | { mode: "required" }
  | { mode: "tool"; name: string }
  /**
   * The model may use only the named tools (OpenAI `allowed_tools`, Gemini
   * `allowedFunctionNames`); `within` says whether it may still answer in text (auto) or must
   * call one of them (required). dialects/tool-choice.ts gives the meaning the lens compares.
   */
  | { mode: "allowed"; within: "auto" | "required"; names: string[] };

export interface Sampling {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxTokens?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  n?: number;
  /** Chat `logit_bias`: token id (as a string) to a bias from -100 to 100. */
  logitBias?: Record<string, number>;
}

export interface ResponseFormat {
  type: "text" | "json_object" | "json_schema";
  name?: string;
  schema?: unknown;
  strict?: boolean;
  /** Keys beside the format the dialect does not define, kept raw (the format still reads). */
  extras?: Record<string, unknown>;
}

export interface ReasoningConfig {
  /** enabled = explicit budget, adaptive = provider decides, disabled = off. */
  mode?: "enabled" | "adaptive" | "disabled";
  budgetTokens?: number;
  /** Effort level as sent ("low", "medium", "high", "minimal", ...). */
  effort?: string;
  /** Responses reasoning.summary. */
  summary?: string;
  /** Gemini `thinkingConfig.includeThoughts`: send the thoughts back as parts. */
  includeThoughts?: boolean;
}

export interface CanonicalRequest {
  dialect: Dialect;
  model?: string;
  /** Top-level system prompt (Anthropic `system`, Responses `instructions`, Gemini `systemInstruction`). */
  system: Part[];
  messages: Message[];
  tools: Tool[];
  toolChoice?: ToolChoice;
  /** false = one tool call at most (Anthropic disable_parallel_tool_use: true). */
  parallelToolCalls?: boolean;
  sampling: Sampling;
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningConfig;
  metadata?: Record<string, unknown>;
  user?: string;
  stream?: boolean;
  streamOptions?: { includeUsage?: boolean };
  serviceTier?: string;
  /** How long the answer should be: Chat `verbosity`, Responses `text.verbosity` (low/medium/high). */
  verbosity?: string;
  /** Keep the response for later retrieval (Chat and Responses `store`; their defaults differ). */
  store?: boolean;
  /** Return the log probability of each output token (Chat `logprobs`). */
  logprobs?: boolean;
  /** How many most likely tokens to return beside each output token, with their log probabilities. */
  topLogprobs?: number;
  /** Chat predicted output (`prediction`: `{type: "content", content}`), as sent. */
  prediction?: Record<string, unknown>;
  /** Remote MCP servers the provider calls itself. */
  mcpServers?: McpServer[];
  /** Anthropic context editing (`context_management: {edits: [...]}`), as sent. */
  contextManagement?: Record<string, unknown>;
  /** Top-level cache_control (Anthropic automatic caching). */
  cache?: CacheMarker;
  /** Request keys the reader does not map, kept raw. */
  extras: Record<string, unknown>;
}

/**
 * Canonical stop reasons. Each dialect's table maps its own vocabulary onto these
 * (see dialects/<dialect>/stop-reason.ts).
 */
export const STOP_REASONS = [
  "stop",
  "length",
  "tool_calls",
  "content_filter",
  "stop_sequence",
  "refusal",
  "pause",
  "error",
  "other",
] as const;

export type StopReason = (typeof STOP_REASONS)[number];

/**
 * Usage in one meaning for all dialects: `inputTokens` counts every prompt token,
 * cached or not (OpenAI's prompt_tokens meaning). The Anthropic reader therefore adds
 * cache_read_input_tokens and cache_creation_input_tokens to input_tokens.
 */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  totalTokens?: number;
}

export interface ReplyError {
  status?: number;
  type?: string;
  message?: string;
  /** The error body as received (object, string, or undefined when there was none). */
  raw?: unknown;
}

/** What a stream reader saw, beyond the content it assembled. */
export interface StreamLifecycle {
  /** Ended with its dialect's terminal event ([DONE], message_stop, response.completed, done:true, finishReason). */
  complete: boolean;
  /** The terminal event seen, if any. */
  terminalEvent?: string;
  /** Number of events (SSE events or NDJSON lines). */
  events: number;
  /** Events that could not be parsed or did not fit the dialect, with why. */
  malformed: string[];
  /** Tool-call fragments that could not be attached to a call (unknown index/id). */
  orphanFragments: number;
  /** An error event seen mid-stream. */
  error?: ReplyError;
  /**
   * Content blocks opened and closed by events of their own (Anthropic content_block_start /
   * content_block_stop), where the dialect has them: how many, and each event out of a block's
   * lifecycle.
   */
  blocks?: { count: number; faults: BlockFault[] };
}

/**
 * An event out of its content block's lifecycle (start, deltas, stop): one after the block's
 * stop (`after-stop`), one for a block never started (`no-start`), a second start of an open
 * block (`started-twice`), a block still open when the stream ended (`no-stop`).
 */
export interface BlockFault {
  fault: "after-stop" | "no-start" | "started-twice" | "no-stop";
  /** The block's key (`block:0`) and the event's number in the stream (0: at the end). */
  block: string;
  event: number;
  /** The event's type (`content_block_delta`), or `message_stop` for a block never stopped. */
  type: string;
}

export interface CanonicalReply {
  dialect: Dialect;
  id?: string;
  model?: string;
  /** Text, tool-call, thinking, reasoning and refusal parts, in order. */
  parts: Part[];
  stopReason?: StopReason;
  /** The stop/finish reason exactly as the wire spelled it. */
  rawStopReason?: string;
  /** Which stop sequence matched, where the dialect says so. */
  stopSequence?: string;
  usage?: Usage;
  /** Set when the reply is an error (non-2xx, or an error object in a 2xx body). */
  error?: ReplyError;
  /** Present only for streamed replies. */
  stream?: StreamLifecycle;
  /**
   * What the wire held empty and the reader read as nothing (not parts): an Anthropic stream's
   * text block that ended with no text, Chat `content: ""`, a Responses message item with no
   * content. Kept so the one-sided invariants see them (probes/lens/reply-invariants.ts).
   */
  emptied?: EmptiedItem[];
  extras: Record<string, unknown>;
}

/** An item the reader read as nothing: an empty text, or an output item holding nothing. */
export interface EmptiedItem {
  kind: "text" | "item";
  /** Where the wire held it (`content_block 0`, `message.content`, `output[0]`). */
  at: string;
}
