/**
 * Matching a request path to a dialect's endpoints, the pieces every dialect's routes use:
 * a fixed set of paths (most dialects), or a pattern that carries the model (Gemini).
 */
import type { Dialect } from "./dialect.ts";

export interface PathMatch {
  dialect: Dialect;
  kind: "generate" | "models";
  /** Gemini carries the model in the path. */
  model?: string;
  /** Gemini streams through a different method. */
  stream?: boolean;
  /** A path several dialects answer on (`/v1/models`): headers tell which is asked. */
  shared?: true;
}

/** A matcher for a dialect whose endpoints are fixed paths. */
export function fixedPaths(
  dialect: Dialect,
  generate: readonly string[],
  models: readonly string[],
  sharedModels = false,
): (path: string) => PathMatch | undefined {
  return (path) => {
    if (generate.includes(path)) return { dialect, kind: "generate" };
    if (!models.includes(path)) return undefined;
    return sharedModels ? { dialect, kind: "models", shared: true } : { dialect, kind: "models" };
  };
}
