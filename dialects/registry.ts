/**
 * The five dialect modules, by name. Every dispatch on a dialect goes through here; a
 * dialect added to DIALECTS without a module does not compile.
 */
import { ANTHROPIC_MESSAGES } from "./anthropic-messages/index.ts";
import { type Dialect, isDialect } from "./dialect.ts";
import { DialectError } from "./dialect-error.ts";
import type { DialectModule } from "./dialect-module.ts";
import { GEMINI } from "./gemini/index.ts";
import { OLLAMA } from "./ollama/index.ts";
import { OPENAI_CHAT } from "./openai-chat/index.ts";
import { OPENAI_RESPONSES } from "./openai-responses/index.ts";

export const DIALECT_MODULES = {
  "openai-chat": OPENAI_CHAT,
  "openai-responses": OPENAI_RESPONSES,
  "anthropic-messages": ANTHROPIC_MESSAGES,
  gemini: GEMINI,
  ollama: OLLAMA,
} as const satisfies Record<Dialect, DialectModule>;

/** The module of `dialect`; an unknown name is a DialectError (`unknown-dialect`). */
export function dialectModule(dialect: Dialect): DialectModule {
  if (!isDialect(dialect)) {
    throw new DialectError("unknown-dialect", `unknown dialect ${JSON.stringify(dialect)}`);
  }
  return DIALECT_MODULES[dialect];
}
