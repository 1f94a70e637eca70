/**
 * A dialect module is complete or it does not compile: `npm run typecheck` fails on any
 * `@ts-expect-error` below that stops being an error. The runtime checks hold the five
 * modules to the names they are registered under.
 */
import { describe, expect, it } from "vitest";
import { DIALECTS } from "./dialect.ts";
import type { DialectModule, DialectTraits } from "./dialect-module.ts";
import { OPENAI_CHAT } from "./openai-chat/index.ts";
import { DIALECT_MODULES } from "./registry.ts";
import { dialectOfPath } from "./routes.ts";

const { traits, routes } = OPENAI_CHAT;

// A module without one of its traits is not a module.
const { streamUsage: _left, ...withoutATrait } = traits;
// @ts-expect-error streamUsage is missing
const _missingTrait: DialectModule = { ...OPENAI_CHAT, traits: withoutATrait };

// Nor one whose routes lack the stream endpoint.
const { generateStream: _gone, ...withoutARoute } = routes;
// @ts-expect-error generateStream is missing
const _missingRoute: DialectModule = { ...OPENAI_CHAT, routes: withoutARoute };

// Nor one without a field table.
const { fields: _noFields, ...withoutFields } = OPENAI_CHAT;
// @ts-expect-error fields is missing
const _missingFields: DialectModule = withoutFields;

// Nor one without its reply-form table.
const { replyForms: _noForms, ...withoutReplyForms } = OPENAI_CHAT;
// @ts-expect-error replyForms is missing
const _missingReplyForms: DialectModule = withoutReplyForms;

// And a trait takes only its documented values.
// @ts-expect-error "sometimes" is not a stream-usage value
const _badTrait: DialectTraits = { ...traits, streamUsage: "sometimes" };

describe("the dialect registry", () => {
  it.each(DIALECTS)("%s: the module registered under a name is that dialect's", (dialect) => {
    expect(DIALECT_MODULES[dialect].name).toBe(dialect);
  });

  it.each(DIALECTS)("%s: routes answer their own paths", (dialect) => {
    const { routes } = DIALECT_MODULES[dialect];
    const generate = routes.generate("m").split("?")[0] ?? "";
    expect(routes.match(generate)).toMatchObject({ dialect, kind: "generate" });
    // The models path may be one several dialects share (`/v1/models`).
    expect(dialectOfPath(routes.models)?.kind).toBe("models");
  });
});
