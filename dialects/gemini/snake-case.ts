/**
 * Google's JSON accepts snake_case spellings of every field (`generation_config`,
 * `thinking_config`): the request reader renames them at the fixed containers whose keys
 * are field names, never inside schemas or arguments (see camelKeys in request-fields.ts).
 */
import { isRecord, type JsonRecord } from "../json.ts";
import { camelKeys } from "../request-fields.ts";

/** camelKeys on the body and on the fixed containers whose keys are field names (not data). */
export function camelContainers(body: JsonRecord): JsonRecord {
  // Most bodies are camelCase throughout: read as they are, with no copy.
  if (!snakeContainers(body)) return body;
  // Copies, never writes into the caller's objects (camelKeys may return its argument).
  const out = { ...camelKeys(body) };
  camelNested(out, "generationConfig", "thinkingConfig");
  camelNested(out, "toolConfig", "functionCallingConfig");
  camelNested(out, "systemInstruction");
  return out;
}

/** Replaces `record[key]` (an object) by a camelCase copy, and its `inner` object too. */
function camelNested(record: JsonRecord, key: string, inner?: string): void {
  const value = record[key];
  if (!isRecord(value)) return;
  const camel = { ...camelKeys(value) };
  if (inner) camelNested(camel, inner);
  record[key] = camel;
}

function hasSnakeKey(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const key in value) if (key.includes("_")) return true;
  return false;
}

/** Whether camelContainers has anything to rename (the body or one of its fixed containers). */
function snakeContainers(body: JsonRecord): boolean {
  if (hasSnakeKey(body)) return true;
  const generation = body.generationConfig;
  if (hasSnakeKey(generation)) return true;
  if (isRecord(generation) && hasSnakeKey(generation.thinkingConfig)) return true;
  const tool = body.toolConfig;
  if (hasSnakeKey(tool)) return true;
  if (isRecord(tool) && hasSnakeKey(tool.functionCallingConfig)) return true;
  return hasSnakeKey(body.systemInstruction);
}
