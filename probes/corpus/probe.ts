/**
 * What a probe is: one field under test, as data. The schema here validates both the
 * built-in corpus (in tests) and user probe files (`parseProbeFile`), so both obey one shape.
 */
import { z } from "zod";
import { type StagedReply, stagedReplySchema } from "../../dialects/canonical-reply-schema.ts";
import {
  CLIENT_DIALECTS,
  type ClientDialect,
  DIALECTS,
  type Dialect,
} from "../../dialects/dialect.ts";
import { type StreamPlan, StreamPlanSchema } from "../../dialects/stream-plan.ts";
import { VERDICTS, type VerdictKind } from "../verdict.ts";

/** The axes of DESIGN.md, plus `failure`: upstream faults, retries, deadlines (docs/failure.md). */
export const AXES = [
  "request",
  "content",
  "header",
  "credential",
  "response",
  "stream",
  "error",
  "path",
  "failure",
] as const;
export type Axis = (typeof AXES)[number];

export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const MODES = ["stream", "non-stream"] as const;

/** The id prefix of each client dialect: `am-stop-sequences`, `oc-stop`, `or-instructions`. */
export const CLIENT_PREFIX = {
  "anthropic-messages": "am",
  "openai-chat": "oc",
  "openai-responses": "or",
} as const satisfies Record<ClientDialect, string>;

const ID_SHAPE = /^(am|oc|or)-[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const knownIssueSchema = z
  .object({
    gateway: z.string().min(1),
    /** A semver range (`>=1.96.2 <1.97`) or the exact versions it was seen on. */
    versions: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    /** The verdict this gateway's cell must show on those versions (a positive control). */
    expect: z.enum(VERDICTS),
    url: z.url(),
    /** true only after a real run of this rig reproduced it; cited issues start false. */
    reproduced: z.boolean(),
    /** Backend dialects of the routes where it was reported; absent = every route. */
    backends: z.array(z.enum(DIALECTS)).min(1).optional(),
    /** Modes where it was reported; absent = both. */
    modes: z.array(z.enum(MODES)).min(1).optional(),
    note: z.string().optional(),
  })
  .strict();
export type KnownIssue = z.infer<typeof knownIssueSchema>;

/** An upstream error the mock answers with; `shape` picks how the body is spelled. */
export const upstreamErrorSchema = z
  .object({
    status: z.number().int().min(400).max(599),
    message: z.string(),
    type: z.string().optional(),
    /** object: the dialect's error object; string: `{"error":"..."}`; html: a proxy page; empty: no body. */
    shape: z.enum(["object", "string", "html", "empty"]).optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();

/** Raw bytes per backend dialect, for replies the canonical model cannot express. */
export const rawReplySchema = z
  .object({
    status: z.number().int().min(100).max(599),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string(),
  })
  .strict();

/**
 * How the mock cuts and times the bytes (its WirePlanSpec: `chunks`, delays, `end`, gzip).
 * The mock validates it; the corpus keeps it opaque so probes import nothing of the mock.
 */
const wirePlan = z.record(z.string(), z.unknown());

const replyStep = z
  .object({
    reply: stagedReplySchema,
    /** How the reply is cut into stream events (dialects/stream-plan.ts). */
    plan: StreamPlanSchema.optional(),
    wire: wirePlan.optional(),
  })
  .strict();
const errorStep = z.object({ error: upstreamErrorSchema, wire: wirePlan.optional() }).strict();
const rawStep = z
  .object({ raw: z.partialRecord(z.enum(DIALECTS), rawReplySchema), wire: wirePlan.optional() })
  .strict()
  .refine((v) => Object.keys(v.raw).length > 0, "raw needs at least one backend dialect");

const upstreamStep = z.union([replyStep, errorStep, rawStep]);

/** What the mock answers: one reply, or a sequence (503, 503, 200) for retry probes. */
export const upstreamSchema = z.union([
  replyStep,
  errorStep,
  rawStep,
  z.object({ sequence: z.array(upstreamStep).min(2) }).strict(),
]);

type WirePlan = Record<string, unknown>;
export type UpstreamStep =
  | { reply: StagedReply; plan?: StreamPlan; wire?: WirePlan }
  | { error: z.infer<typeof upstreamErrorSchema>; wire?: WirePlan }
  | { raw: Partial<Record<Dialect, z.infer<typeof rawReplySchema>>>; wire?: WirePlan };
export type Upstream = UpstreamStep | { sequence: UpstreamStep[] };

export const probeSchema = z
  .object({
    id: z.string().regex(ID_SHAPE, "kebab-case id starting with am-, oc- or or-"),
    client: z.enum(CLIENT_DIALECTS),
    axis: z.enum(AXES),
    /** The lens's dotted spelling (probes/lens/field-names.ts) of the field under test. */
    field: z.string().min(1),
    /** Deep-merged into the client dialect's base request (arrays replace). */
    request: z.record(z.string(), z.unknown()),
    headers: z.record(z.string(), z.string()).optional(),
    /** Query parameters added to the client request URL (`?key=` canaries). */
    query: z.record(z.string(), z.string()).optional(),
    upstream: upstreamSchema.optional(),
    /**
     * A fallback probe: the gateway is given two targets, and `upstream.sequence` (two steps)
     * is spread over them: the first step is what the first target answers every time, the
     * second what the second target answers. Seen from one backend, the same traffic.
     */
    fallback: z.literal(true).optional(),
    /**
     * What the judge needs that the gateway must not see (the exchange's `context`, never a
     * request header): the caller's deadline a failure probe states.
     */
    context: z.strictObject({ deadlineMs: z.number().finite().positive() }).optional(),
    modes: z.array(z.enum(MODES)).min(1),
    /** Backend dialects where the probe is meaningful; absent = all. */
    backends: z.array(z.enum(DIALECTS)).min(1).optional(),
    severity: z.enum(SEVERITIES),
    knownIssues: z.array(knownIssueSchema).optional(),
    /** One line: what must hold for the field to count as carried (the oracle). */
    note: z.string().min(1),
  })
  .strict()
  .superRefine((probe, ctx) => {
    const prefix = CLIENT_PREFIX[probe.client];
    if (!probe.id.startsWith(`${prefix}-`)) {
      ctx.addIssue({
        code: "custom",
        path: ["id"],
        message: `id of a ${probe.client} probe must start with "${prefix}-"`,
      });
    }
    if (
      probe.fallback &&
      !(probe.upstream && "sequence" in probe.upstream && probe.upstream.sequence.length === 2)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["upstream"],
        message:
          "a fallback probe needs upstream.sequence with two steps (first target, second target)",
      });
    }
  });

/** A probe as written in the corpus files (the schema's output, with the typed upstream). */
export interface Probe {
  id: string;
  client: ClientDialect;
  axis: Axis;
  field: string;
  request: Record<string, unknown>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  upstream?: Upstream;
  /** Two targets: `upstream.sequence[0]` is the first's answer, `[1]` the second's. */
  fallback?: true;
  /** Judging context the exchange carries beside the traffic (never sent to the gateway). */
  context?: { deadlineMs: number };
  modes: readonly ("stream" | "non-stream")[];
  backends?: readonly Dialect[];
  severity: Severity;
  knownIssues?: readonly KnownIssue[];
  note: string;
}

export type ExpectedVerdict = VerdictKind;

/** Problems of the corpus room. */
export type CorpusErrorCode = "invalid-json" | "invalid-probe" | "duplicate-id" | "no-nonce-slot";

export class CorpusError extends Error {
  constructor(
    readonly code: CorpusErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "CorpusError";
  }
}
