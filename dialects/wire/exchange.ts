/**
 * One probe's traffic in the wire vocabulary: what the client sent, what reached the backend,
 * what the backend answered and what the client got back, with the clock facts and the
 * judging context. It is the shape `gatecheck check` reads, the shape a stored attempt holds
 * (results/schema.ts) and the shape `export` writes; a mock record file is read into it
 * (mock-upstream/record-exchanges.ts). docs/lens.md ("The exchange format") describes it.
 */
import { z } from "zod";
import {
  CLIENT_DIALECTS,
  type ClientDialect,
  DIALECTS,
  type Dialect,
  type Mode,
} from "../dialect.ts";
import {
  type WireReply,
  type WireRequest,
  wireReplySchema,
  wireRequestSchema,
} from "./messages.ts";

/** `context.fallback.on` for a gateway that moves on every non-2xx (Portkey's default). */
export const ANY_NON_2XX = "any-non-2xx";

/**
 * What the judge needs to know that is no part of the traffic, so the gateway under test
 * never sees it: the sender writes it beside the exchange, never into a request.
 */
export interface ExchangeContext {
  /**
   * A fallback probe: the targets the gateway was given, by `host:port` in order (the first
   * fails), and the first-target statuses it is configured to move on.
   */
  fallback?: { targets?: string[]; on?: number[] | typeof ANY_NON_2XX };
  /** The caller's deadline the probe states, in milliseconds (failure.deadline). */
  deadlineMs?: number;
  /**
   * A strict provider (a mock persona, mock-upstream/personas) rejected a forwarded request:
   * which persona, by which of its rules, with what message (the first such rejection).
   */
  strictProvider?: { persona: string; rule: string; message: string };
  /**
   * The backend is a provider's mount of its dialect (the route's backend flavour): the
   * provider serves the dialect under `at` in place of the route's `replaces` prefix
   * (Google's OpenAI-compatible API at `/v1beta/openai` for `/v1`), so that is the path a
   * forwarded request must take. `see` is the provider's reference for it.
   */
  backendMount?: { provider: string; at: string; replaces: string; see: string };
  /**
   * The route's preflight failed with this reason (the plain request went to a path its
   * backend does not serve): only the probe's own subject, its path, is judged on it, since
   * every other field read off a route the rig may have configured wrongly says nothing of
   * the gateway (docs/sweep.md, "A route is checked before it is swept").
   */
  routePreflight?: string;
}

/**
 * Clock facts, which bodies cannot show: one entry per `forwarded` request in the same order
 * (arrival offset from the first, and the status and `retry-after` the backend answered it
 * with), and how long the client waited for its whole response.
 */
export interface ExchangeTiming {
  forwarded: { atMs: number; status?: number; retryAfter?: string }[];
  clientTotalMs?: number;
}

export interface WireExchange {
  /** The client dialect is absent when the client side was not recorded (a mock record file). */
  route: { client?: ClientDialect; backend: Dialect };
  mode: Mode;
  clientRequest?: WireRequest;
  /** Every request the backend got for this exchange; absent when it was not recorded. */
  forwarded?: WireRequest[];
  /** What the backend answered the request the client's answer follows. */
  upstreamReply?: WireReply;
  clientResponse?: WireReply;
  /** The client got no response at all (refused, reset before headers, timed out): why. */
  clientError?: string;
  context?: ExchangeContext;
  /** Canary values the sender planted, to recognise them (or their redaction tags). */
  secrets?: string[];
  timing?: ExchangeTiming;
  /** Free text for whoever reads the file; ignored by the lens. */
  note?: string;
}

const millis = z.number().finite().nonnegative();

export const exchangeContextSchema = z.strictObject({
  fallback: z
    .strictObject({
      targets: z.array(z.string().min(1)).min(1).optional(),
      on: z.union([z.array(z.number().int().min(100).max(599)), z.literal(ANY_NON_2XX)]).optional(),
    })
    .optional(),
  deadlineMs: z.number().positive().finite().optional(),
  strictProvider: z
    .strictObject({ persona: z.string().min(1), rule: z.string().min(1), message: z.string() })
    .optional(),
  backendMount: z
    .strictObject({
      provider: z.string().min(1),
      at: z.string().regex(/^\//),
      replaces: z.string().regex(/^(\/.*)?$/),
      see: z.string().min(1),
    })
    .optional(),
  routePreflight: z.string().min(1).optional(),
});

export const exchangeTimingSchema = z.strictObject({
  forwarded: z.array(
    z.strictObject({
      atMs: millis,
      status: z.number().int().optional(),
      retryAfter: z.string().optional(),
    }),
  ),
  clientTotalMs: millis.optional(),
});

/** The exchange's own keys; `exchangeShape` lets a reader swap a side's schema (shorthand). */
export const exchangeShape = {
  route: z.strictObject({ client: z.enum(CLIENT_DIALECTS).optional(), backend: z.enum(DIALECTS) }),
  mode: z.enum(["stream", "non-stream"]),
  clientRequest: wireRequestSchema.optional(),
  forwarded: z.array(wireRequestSchema).optional(),
  upstreamReply: wireReplySchema.optional(),
  clientResponse: wireReplySchema.optional(),
  clientError: z.string().optional(),
  context: exchangeContextSchema.optional(),
  secrets: z.array(z.string().min(1)).optional(),
  timing: exchangeTimingSchema.optional(),
  note: z.string().optional(),
};

/**
 * The client side hangs together: a client request needs the dialect it speaks (and a dialect
 * a request), and a client response needs the request it answers.
 */
export function checkClientSide(
  exchange: {
    route: { client?: string | undefined };
    clientRequest?: unknown;
    clientResponse?: unknown;
  },
  ctx: z.RefinementCtx,
): void {
  const hasRequest = exchange.clientRequest !== undefined;
  if ((exchange.route.client !== undefined) !== hasRequest)
    ctx.addIssue({
      code: "custom",
      path: hasRequest ? ["route", "client"] : ["clientRequest"],
      message: hasRequest
        ? "expected the client dialect the client request speaks"
        : "expected the client request the route's client dialect speaks",
    });
  if (!hasRequest && exchange.clientResponse !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["clientRequest"],
      message: "expected the client request the client response answers",
    });
}

export const wireExchangeSchema = z.strictObject(exchangeShape).superRefine(checkClientSide);
