/**
 * What a real client sees: a recorded client response fed to the official SDK of its
 * dialect, the way an agent's code would receive it.
 *
 * Contract:
 *   sdkView(client, mode, { status, headers, body }) → Promise<SdkView>
 * - The bytes are served to the SDK by a custom `fetch` that returns
 *   `new Response(body, { status, headers })` for the call's recorded response (one shared
 *   client per SDK; the call names its response in a header); no socket is opened, retries
 *   are off.
 * - SDKs: `openai` for openai-chat and openai-responses, `@anthropic-ai/sdk` for
 *   anthropic-messages. Streams go through the SDK's own stream helpers, which assemble the
 *   final message from the events: `chat.completions.stream().finalChatCompletion()`,
 *   `responses.stream().finalResponse()`, `messages.stream().finalMessage()`.
 * - `accepted` is false when the SDK throws (an HTTP error status, a stream it cannot parse
 *   or that ends without its final event) or hands back something that is not a reply of
 *   its dialect; `error` then says what the SDK said. Never throws itself.
 * - `stopReason` is the SDK's own field as the SDK surfaced it: chat `finish_reason`,
 *   Messages `stop_reason`, Responses `status` (`incomplete/<reason>` when incomplete, the lens's raw spelling).
 * - `toolCalls[].arguments` is what the agent gets: for Messages the SDK's parsed `input`
 *   (the stream helper parses the JSON fragments itself and may throw); for the OpenAI
 *   dialects the SDK leaves a string, and we `JSON.parse` it as agent code does.
 *   `argumentsParsed` is false when that parse fails (then `arguments` is undefined).
 * - The lens is not consulted here; the sweep compares this view with the lens's reading.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { ClientDialect, Mode } from "../../dialects/dialect.ts";

export interface RecordedResponse {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

export interface SdkToolCall {
  id: string;
  name: string;
  arguments: unknown | undefined;
  argumentsParsed: boolean;
  /** Why the arguments could not be parsed. */
  argumentsError?: string;
}

export interface SdkView {
  accepted: boolean;
  error?: string;
  stopReason?: string;
  text?: string;
  toolCalls?: SdkToolCall[];
}

/** Any host works: the custom fetch never opens a connection. */
const BASE = "http://sdk-replay.gatecheck.invalid";
const MODEL = "gatecheck-mock-model";
const MESSAGES = [{ role: "user" as const, content: "gatecheck" }];

/**
 * One client per SDK for the whole process: constructing one builds every resource class
 * of the SDK (about half a millisecond a view, measured in the sweep's profile). Each call
 * names its recorded response in a request header the shared fetch looks up, so concurrent
 * views never see each other's bytes.
 */
const REPLAY_HEADER = "x-gatecheck-replay";
const replays = new Map<string, RecordedResponse>();
let nextReplay = 0;

const replayFetch: typeof fetch = async (_url, init) => {
  const id = new Headers(init?.headers).get(REPLAY_HEADER);
  const response = id === null ? undefined : replays.get(id);
  if (!response) throw new TypeError(`fetch failed: no recorded response for replay ${id}`);
  return replayedResponse(response);
};

/** Run `call` with request options that make the shared fetch answer with `response`. */
async function withReplay<T>(
  response: RecordedResponse,
  call: (options: { headers: Record<string, string> }) => Promise<T>,
): Promise<T> {
  const id = String(nextReplay++);
  replays.set(id, response);
  try {
    return await call({ headers: { [REPLAY_HEADER]: id } });
  } finally {
    replays.delete(id);
  }
}

const clientOptions = { baseURL: `${BASE}/v1`, fetch: replayFetch, maxRetries: 0 };
let openai: OpenAI | undefined;
let anthropic: Anthropic | undefined;
const openaiClient = () => (openai ??= new OpenAI({ apiKey: "sk-replay", ...clientOptions }));
const anthropicClient = () =>
  (anthropic ??= new Anthropic({ apiKey: "sk-ant-replay", ...clientOptions, baseURL: BASE }));

export function replayedResponse(response: RecordedResponse): Response {
  // Header names/values the platform refuses (e.g. a bare `Set-Cookie` pair list) are skipped, not fatal.
  const headers = new Headers();
  for (const [name, value] of response.headers) {
    try {
      headers.append(name, value);
    } catch {
      // An invalid header would make Response throw; the SDK would never have seen it either.
    }
  }
  // A real client's fetch undoes Content-Encoding before the SDK sees the body, and fails
  // when the bytes do not decode; the recorded bytes are the wire's, so do the same here.
  const body = decoded(response.body, headers.get("content-encoding"));
  headers.delete("content-encoding");
  headers.delete("content-length");
  const noBody = response.status === 204 || response.status === 304;
  return new Response(noBody ? null : new Uint8Array(body), {
    status: response.status,
    headers,
  });
}

function decoded(body: Buffer, encoding: string | null): Buffer {
  const name = encoding?.trim().toLowerCase();
  try {
    if (name === "gzip" || name === "x-gzip") return gunzipSync(body);
    if (name === "deflate") return inflateSync(body);
    if (name === "br") return brotliDecompressSync(body);
  } catch (error) {
    throw new TypeError(
      `fetch failed: body claims ${name} but does not decode (${(error as Error).message})`,
    );
  }
  return body;
}

/** The official SDK that parses each client dialect's responses. */
const SDK_VIEWS = {
  "openai-chat": chatView,
  "openai-responses": responsesView,
  "anthropic-messages": messagesView,
} as const satisfies Record<
  ClientDialect,
  (mode: Mode, response: RecordedResponse) => Promise<SdkView>
>;

export async function sdkView(
  client: ClientDialect,
  mode: Mode,
  response: RecordedResponse,
): Promise<SdkView> {
  try {
    return await SDK_VIEWS[client](mode, response);
  } catch (error) {
    return { accepted: false, error: describe(error) };
  }
}

function describe(error: unknown): string {
  if (error instanceof OpenAI.APIError || error instanceof Anthropic.APIError) {
    // The SDKs' messages already start with the status (`401 Incorrect API key ...`).
    // A fetch failure surfaces as "Connection error."; its cause says what failed.
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
    return `${error.constructor.name}: ${error.message}${cause}`.replace(/\s+/g, " ").trim();
  }
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function parsedArguments(
  raw: string,
): Pick<SdkToolCall, "arguments" | "argumentsParsed" | "argumentsError"> {
  try {
    return { arguments: JSON.parse(raw), argumentsParsed: true };
  } catch (error) {
    return {
      arguments: undefined,
      argumentsParsed: false,
      argumentsError: (error as Error).message,
    };
  }
}

function notAReply(what: string, value: unknown): SdkView {
  const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 80)) : typeof value;
  return { accepted: false, error: `the SDK returned no ${what} (got ${shown})` };
}

async function chatView(mode: Mode, response: RecordedResponse): Promise<SdkView> {
  const sdk = openaiClient();
  const completion = await withReplay<OpenAI.ChatCompletion>(response, (options) =>
    mode === "stream"
      ? sdk.chat.completions
          .stream({ model: MODEL, messages: MESSAGES }, options)
          .finalChatCompletion()
      : sdk.chat.completions.create({ model: MODEL, messages: MESSAGES }, options),
  );
  if (!completion || typeof completion !== "object" || !Array.isArray(completion.choices)) {
    return notAReply("chat completion", completion);
  }
  const choice = completion.choices[0];
  if (!choice) return { accepted: true, error: "no choices in the completion", toolCalls: [] };
  const toolCalls = (choice.message.tool_calls ?? []).flatMap((call): SdkToolCall[] =>
    call.type === "function"
      ? [{ id: call.id, name: call.function.name, ...parsedArguments(call.function.arguments) }]
      : [{ id: call.id, name: `(${call.type})`, arguments: undefined, argumentsParsed: false }],
  );
  return {
    accepted: true,
    ...(choice.finish_reason ? { stopReason: choice.finish_reason } : {}),
    ...(typeof choice.message.content === "string" ? { text: choice.message.content } : {}),
    toolCalls,
  };
}

async function responsesView(mode: Mode, response: RecordedResponse): Promise<SdkView> {
  const sdk = openaiClient();
  const result = await withReplay<OpenAI.Responses.Response>(response, (options) =>
    mode === "stream"
      ? sdk.responses.stream({ model: MODEL, input: "gatecheck" }, options).finalResponse()
      : sdk.responses.create({ model: MODEL, input: "gatecheck" }, options),
  );
  if (!result || typeof result !== "object" || !Array.isArray(result.output)) {
    return notAReply("response", result);
  }
  const toolCalls: SdkToolCall[] = [];
  const texts: string[] = [];
  for (const item of result.output) {
    if (item.type === "function_call") {
      toolCalls.push({ id: item.call_id, name: item.name, ...parsedArguments(item.arguments) });
    } else if (item.type === "message") {
      for (const part of item.content) if (part.type === "output_text") texts.push(part.text);
    }
  }
  const incomplete = result.incomplete_details?.reason;
  return {
    accepted: true,
    ...(result.status
      ? { stopReason: incomplete ? `${result.status}/${incomplete}` : result.status }
      : {}),
    ...(texts.length > 0 ? { text: texts.join("") } : {}),
    toolCalls,
  };
}

async function messagesView(mode: Mode, response: RecordedResponse): Promise<SdkView> {
  const sdk = anthropicClient();
  const params = { model: MODEL, max_tokens: 64, messages: MESSAGES };
  const message = await withReplay<Anthropic.Message>(response, (options) =>
    mode === "stream"
      ? sdk.messages.stream(params, options).finalMessage()
      : sdk.messages.create(params, options),
  );
  if (!message || typeof message !== "object" || !Array.isArray(message.content)) {
    return notAReply("message", message);
  }
  const toolCalls: SdkToolCall[] = [];
  const texts: string[] = [];
  for (const block of message.content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "tool_use") {
      // The stream helper parses the JSON fragments lazily, when `input` is read: it may throw.
      try {
        toolCalls.push({
          id: block.id,
          name: block.name,
          arguments: block.input,
          argumentsParsed: true,
        });
      } catch (error) {
        toolCalls.push({
          id: block.id,
          name: block.name,
          arguments: undefined,
          argumentsParsed: false,
          argumentsError: (error as Error).message,
        });
      }
    }
  }
  return {
    accepted: true,
    ...(message.stop_reason ? { stopReason: message.stop_reason } : {}),
    ...(texts.length > 0 ? { text: texts.join("") } : {}),
    toolCalls,
  };
}
