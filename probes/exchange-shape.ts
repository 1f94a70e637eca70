/**
 * The exchange file's schema: the wire vocabulary's exchange (dialects/wire/exchange.ts)
 * with a shorthand for hand-written files. A body may be written as `{data, encoding}`
 * bytes, as a string (its UTF-8 text) or, for a request, as the JSON object or array it
 * carries; headers as `[name, value]` pairs in any case or as an object (a value may be a
 * list); a request's method defaults to POST. Parsing gives the vocabulary's strict form:
 * bytes, lower-case pairs. Stored attempts and exports are written in that strict form, so
 * one reader serves every file.
 */
import { z } from "zod";
import { bytesSchema, textBytes } from "../dialects/wire/bytes.ts";
import { checkClientSide, exchangeShape } from "../dialects/wire/exchange.ts";
import { lowerCasePairs } from "../dialects/wire/headers.ts";
import { checkFrames, wireReplyShape, wireRequestShape } from "../dialects/wire/messages.ts";

const headersSchema = z
  .union([
    z.array(z.tuple([z.string().min(1), z.string()])),
    z.record(z.string().min(1), z.union([z.string(), z.array(z.string())])),
  ])
  .default([])
  .transform((headers): [string, string][] => {
    if (Array.isArray(headers)) return lowerCasePairs(headers);
    const out: [string, string][] = [];
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (typeof value === "string") out.push([lower, value]);
      else for (const v of value) out.push([lower, v]);
    }
    return out;
  });

const textSchema = z.string().transform(textBytes);

/**
 * A JSON object body, taken as it is: a record schema would copy it key by key onto `{}`,
 * where a `__proto__` key sets the prototype and is lost, so a client key of that name would
 * never be judged (issue 20: such keys are judged like any other).
 */
const jsonObjectBody = z.custom<Record<string, unknown>>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getOwnPropertySymbols(value).length === 0,
  { message: "Invalid input: expected a JSON object" },
);

const requestBodySchema = z.union([
  bytesSchema,
  textSchema,
  z
    .union([jsonObjectBody, z.array(z.unknown())])
    .transform((json) => textBytes(JSON.stringify(json))),
]);

const requestSchema = z.strictObject({
  ...wireRequestShape,
  method: wireRequestShape.method.default("POST"),
  headers: headersSchema,
  body: requestBodySchema,
});

const replySchema = z
  .strictObject({
    ...wireReplyShape,
    headers: headersSchema,
    body: z.union([bytesSchema, textSchema]),
  })
  .superRefine(checkFrames);

export const exchangeFileSchema = z
  .strictObject({
    ...exchangeShape,
    clientRequest: requestSchema.optional(),
    forwarded: z.array(requestSchema).optional(),
    upstreamReply: replySchema.optional(),
    clientResponse: replySchema.optional(),
  })
  .superRefine(checkClientSide);

/** What a file may hold (the shorthand allowed). */
export type ExchangeInput = z.input<typeof exchangeFileSchema>;
