/**
 * The sweep audits its own findings before anyone reads them. A silent defect the rig made (a
 * gateway configured by gatecheck to a path the backend does not serve, a mock that answered
 * in a form the real provider never would, a route whose preflight failed) reads exactly like
 * one the gateway made. Each sign below looks at what is stored for a defect (its example
 * exchanges, the run's cells, the other columns' defects) for one way the rig shows its hand;
 * a defect with any sign is withheld from the headline and listed as a rig suspect with what
 * showed it (docs/results.md, "Rig suspects"), so it is looked at before it is cited.
 *
 * Pure: the exchanges are read beforehand (rig-evidence.ts), so `report` and `rescore` audit
 * a stored run exactly as the sweep that wrote it did.
 */
import type { Mode } from "../dialects/dialect.ts";
import { dialectModule } from "../dialects/registry.ts";
import { dialectOfPath, replyFormOf } from "../dialects/routes.ts";
import type { WireExchange } from "../dialects/wire/exchange.ts";
import { headerValue } from "../dialects/wire/headers.ts";
import { knownPathOutcome } from "../probes/lens/wire-judges.ts";
import { VERDICT_CLASS } from "../probes/verdict.ts";
import type { ColumnHeadline, Defect, RigSignFound } from "./defects.ts";
import { type CellRecord, cellKeyString } from "./records.ts";
import { gatewayOfColumn } from "./run-summary.ts";
import { PREFLIGHT_REASON } from "./scope.ts";

/** What a sign may look at for one defect. */
export interface SignContext {
  defect: Defect;
  /** The defect's evidence attempts' exchanges that could be read (Defect.evidence). */
  exchanges: readonly WireExchange[];
  /** The cells of the defect's column a sign reads: those not run (with their reason) and
   * those that ran a control leg. */
  cells: readonly CellRecord[];
  /** Every column's headline, the control column's among them. */
  heads: readonly ColumnHeadline[];
}

export interface RigSign {
  id: string;
  /**
   * `route`: a fact of one route of the column (its forwarded path, the mock's replies there,
   * its preflight), tested on each route's part of a defect with that route's exchanges; a
   * defect whose routes differ is split, its routes without the sign staying cited.
   * `defect`: a fact of the defect as a whole (the control column, every gateway).
   */
  scope: "route" | "defect";
  /** What the sign means, for the matrix's legend. */
  description: string;
  /** What shows it on this defect, or undefined when it does not. */
  test(ctx: SignContext): string | undefined;
}

export const RIG_SIGNS: readonly RigSign[] = [
  {
    id: "unserved-path",
    scope: "route",
    description:
      "an example's request was forwarded to a path the backend provider does not serve (its dialect's routes, under the provider's mount): the rig's configuration of the gateway is the first suspect",
    test: ({ exchanges }) => {
      for (const x of exchanges) {
        const why = once(unservedPaths, x, unservedPath);
        if (why) return why;
      }
      return undefined;
    },
  },
  {
    id: "unfaithful-reply",
    scope: "route",
    description:
      "the mock answered an example's request in a form the real provider would not send for that request (a stream to a request that asked for none, SSE to a Gemini stream without `alt=sse`): what the gateway made of it says nothing of the provider",
    test: ({ exchanges }) => {
      for (const x of exchanges) {
        const why = once(unfaithfulReplies, x, unfaithfulReply);
        if (why) return why;
      }
      return undefined;
    },
  },
  {
    id: "route-check-failed",
    scope: "route",
    description:
      "the route's preflight failed in a mode (sweep/route-preflight.ts: its cells there are `not-run` with the reason): what was judged on the route stands on a route the rig could not set up",
    test: ({ defect, cells }) => {
      const routes = new Set(defect.routes);
      const failed = cells.find(
        (c) =>
          routes.has(c.routeId) && c.verdict === "not-run" && c.reason.startsWith(PREFLIGHT_REASON),
      );
      return failed ? `${failed.routeId}: ${failed.reason}` : undefined;
    },
  },
  {
    id: "control-column",
    scope: "defect",
    description:
      "the control column (no gateway between client and mock) shows the same defect: the upstream or the lens made it",
    test: ({ defect, heads }) => {
      if (defect.rule !== "subject") return undefined;
      const control = heads.find((h) => h.control && h.column !== defect.column);
      const same = control?.defects.find((d) => d.rule === "subject" && d.title === defect.title);
      return same && control
        ? `${control.column} shows it on ${same.cells.length} cell${same.cells.length === 1 ? "" : "s"} too`
        : undefined;
    },
  },
  {
    id: "control-leg",
    scope: "defect",
    description:
      "the cells' control leg (the same field over the gateway's native route, where the mock speaks the client's own dialect) lost it too: nothing was translated, so the translation did not lose it",
    test: ({ defect, cells }) => {
      const own = new Set(defect.cells.map((c) => `${c.routeId}\u0000${c.probeId}\u0000${c.mode}`));
      const legs = cells.filter(
        (c) =>
          c.controlVerdict !== undefined &&
          defect.subjects.includes(c.subject) &&
          own.has(`${c.routeId}\u0000${c.probeId}\u0000${c.mode}`),
      );
      if (legs.length === 0) return undefined;
      const lost = legs.filter(
        (c) => c.controlVerdict && VERDICT_CLASS[c.controlVerdict] === "silent",
      );
      return lost.length === legs.length
        ? `the control leg lost it on ${lost.length} of ${legs.length} cell${legs.length === 1 ? "" : "s"} that ran one`
        : undefined;
    },
  },
  {
    id: "every-gateway",
    scope: "defect",
    description:
      "every gateway measured shows the same defect (subject, verdict and cause) with the same example reason, two gateways at least: a shared cause, the rig's or the lens's, is likelier than the same bug everywhere",
    test: ({ defect, heads }) => {
      if (defect.rule !== "subject") return undefined;
      const measured = heads.filter((h) => !h.control && h.judged > 0);
      const gateways = new Set(measured.map((h) => gatewayOfColumn(h.column)));
      if (gateways.size < 2) return undefined;
      // Identically: the same subject, verdict and cause, read with the same example reason.
      const showing = measured.filter((h) =>
        h.defects.some(
          (d) => d.rule === "subject" && d.title === defect.title && d.example === defect.example,
        ),
      );
      return showing.length === measured.length
        ? `all ${measured.length} measured columns (${gateways.size} gateways) show it, with the same example reason`
        : undefined;
    },
  },
];

/** What a sign found on one exchange, worked out once: a defect's parts share exchanges. */
const unservedPaths = new WeakMap<WireExchange, string | undefined>();
const unfaithfulReplies = new WeakMap<WireExchange, string | undefined>();

function once(
  memo: WeakMap<WireExchange, string | undefined>,
  x: WireExchange,
  find: (x: WireExchange) => string | undefined,
): string | undefined {
  if (memo.has(x)) return memo.get(x);
  const found = find(x);
  memo.set(x, found);
  return found;
}

/** Why a forwarded request of the exchange went to a path its backend does not serve. */
export function unservedPath(x: WireExchange): string | undefined {
  for (const f of x.forwarded ?? []) {
    const outcome = knownPathOutcome(f.path, x.route.backend, x.context?.backendMount);
    if (outcome.cause === "wrong-route") {
      return `attempt forwarded to ${f.path}, which the ${x.route.backend} backend does not serve (${outcome.note})`;
    }
  }
  return undefined;
}

function mediaType(value: string | undefined): string | undefined {
  return value?.split(";")[0]?.trim().toLowerCase() || undefined;
}

function jsonBody(x: { body: { data: string; encoding: string } }): unknown {
  if (x.body.encoding !== "utf8") return undefined;
  try {
    return JSON.parse(x.body.data);
  } catch {
    return undefined;
  }
}

/**
 * Why the upstream reply is not in the form the provider answers the request it follows (the
 * last forwarded one) with, or undefined: the row of the backend dialect's reply-form table
 * (dialects/reply-forms.ts) that answers the request's method, query and body gives the form,
 * a JSON body or a JSON array in the dialect's JSON content type, a stream in its stream type.
 */
export function unfaithfulReply(x: WireExchange): string | undefined {
  const reply = x.upstreamReply;
  const request = x.forwarded?.at(-1);
  if (!reply || !request || reply.status < 200 || reply.status >= 300) return undefined;
  const got = mediaType(headerValue(reply.headers, "content-type"));
  if (!got) return undefined;
  const match = dialectOfPath(request.path, x.context?.backendMount?.at);
  if (match?.kind !== "generate") return undefined;
  const { contentTypes } = dialectModule(match.dialect);
  const query = request.path.includes("?") ? request.path.slice(request.path.indexOf("?") + 1) : "";
  const row = replyFormOf(match, query, jsonBody(request));
  const inJson = row.form === "json" || row.form === "json-array";
  const want = mediaType(inJson ? contentTypes.json : contentTypes.stream);
  if (got === want) return undefined;
  return `${request.path} is "${row.variant}", which ${match.dialect} answers as ${row.form} (${want}; ${row.see}); the mock answered ${got}`;
}

/**
 * The audit: every defect of every column given the signs it shows (`Defect.signs`), the
 * exchanges read by attempt id (`exchanges`; an attempt not read is left out). A defect whose
 * routes differ in their route signs becomes two: its part on the routes without a sign
 * (cited) and its part on those with one (a rig suspect).
 */
export function auditHeadline(
  heads: readonly ColumnHeadline[],
  cells: readonly CellRecord[],
  exchanges: ReadonlyMap<number, WireExchange>,
): ColumnHeadline[] {
  const cellsOf = new Map<string, CellRecord[]>();
  for (const c of cells) {
    if (c.verdict !== "not-run" && c.controlVerdict === undefined) continue;
    const list = cellsOf.get(c.column);
    if (list) list.push(c);
    else cellsOf.set(c.column, [c]);
  }
  const cellByKey = new Map(cells.map((c) => [cellKeyString(c), c]));
  const routeSigns = RIG_SIGNS.filter((s) => s.scope === "route");
  const defectSigns = RIG_SIGNS.filter((s) => s.scope === "defect");
  return heads.map((head) => {
    const columnCells = cellsOf.get(head.column) ?? [];
    const test = (signs: readonly RigSign[], defect: Defect): RigSignFound[] => {
      const ctx: SignContext = {
        defect,
        exchanges: defect.evidence.flatMap((e) => exchanges.get(e.attemptId) ?? []),
        cells: columnCells,
        heads,
      };
      return signs.flatMap((sign) => {
        const evidence = sign.test(ctx);
        return evidence === undefined ? [] : [{ sign: sign.id, evidence }];
      });
    };
    const defects = head.defects.flatMap((defect) => {
      const whole = test(defectSigns, defect);
      const signed = new Map<string, RigSignFound[]>();
      for (const route of defect.routes) {
        const found = test(routeSigns, partOf(defect, new Set([route]), cellByKey));
        if (found.length > 0) signed.set(route, found);
      }
      const withSigns = (d: Defect, signs: RigSignFound[]) =>
        signs.length > 0 ? { ...d, signs } : d;
      if (signed.size === 0) return [withSigns(defect, whole)];
      const suspectSigns = [...mergeSigns([...signed.values()].flat(), signed.size), ...whole];
      if (signed.size === defect.routes.length) return [withSigns(defect, suspectSigns)];
      const clean = new Set(defect.routes.filter((r) => !signed.has(r)));
      return [
        withSigns(partOf(defect, clean, cellByKey), whole),
        withSigns(partOf(defect, new Set(signed.keys()), cellByKey), suspectSigns),
      ];
    });
    return { ...head, defects };
  });
}

/** One entry per sign, its first evidence, with how many routes showed it. */
function mergeSigns(found: readonly RigSignFound[], routes: number): RigSignFound[] {
  const out = new Map<string, { first: RigSignFound; n: number }>();
  for (const f of found) {
    const held = out.get(f.sign);
    if (held) held.n += 1;
    else out.set(f.sign, { first: f, n: 1 });
  }
  return [...out.values()].map(({ first, n }) =>
    routes > 1 ? { ...first, evidence: `${first.evidence} (${n} of ${routes} routes)` } : first,
  );
}

/** The part of a defect on some of its routes: its cells, counts and example there. */
export function partOf(
  defect: Defect,
  routes: ReadonlySet<string>,
  cellByKey: ReadonlyMap<string, CellRecord>,
): Defect {
  const cells = defect.cells.filter((c) => routes.has(c.routeId));
  const keys = new Set(cells.map(cellKeyString));
  const evidence = defect.evidence.filter((e) => routes.has(e.routeId));
  const example =
    defect.exampleAttempt && routes.has(defect.exampleAttempt.routeId)
      ? { exampleAttempt: defect.exampleAttempt, example: defect.example }
      : evidence[0]
        ? { exampleAttempt: evidence[0], example: evidence[0].reason ?? "" }
        : { example: "" };
  const records = cells.flatMap((c) => cellByKey.get(cellKeyString(c)) ?? []);
  const { exampleAttempt: _drop, ...rest } = defect;
  return {
    ...rest,
    ...(example.exampleAttempt
      ? {
          exampleAttempt: {
            column: example.exampleAttempt.column,
            routeId: example.exampleAttempt.routeId,
            probeId: example.exampleAttempt.probeId,
            mode: example.exampleAttempt.mode,
            attemptId: example.exampleAttempt.attemptId,
          },
        }
      : {}),
    example: example.example,
    cells,
    routes: defect.routes.filter((r) => routes.has(r)),
    modes: [...new Set(cells.map((c) => c.mode))].sort() as Mode[],
    ownKeys: defect.ownKeys.filter((k) => keys.has(k)),
    ownCells: defect.ownKeys.filter((k) => keys.has(k)).length,
    evidence,
    knownIssues: [...new Set(records.flatMap((c) => (c.knownIssue ? [c.knownIssue] : [])))],
    probes: [...new Set(cells.map((c) => c.probeId))].sort(),
  };
}

/** Whether the audit found a sign of the rig on a defect. */
export function isRigSuspect(defect: Defect): boolean {
  return (defect.signs?.length ?? 0) > 0;
}
