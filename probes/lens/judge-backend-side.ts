/**
 * An exchange whose client side was not recorded (a mock record file, read by `gatecheck
 * check`): with nothing the client sent to compare against, no field can be called kept or
 * lost. What the backend side shows alone is judged: whether the request reached the
 * backend dialect's own route. docs/lens.md ("Missing sides") says what else is lacking.
 */

import { dialectOfPath } from "../../dialects/routes.ts";
import type { Exchange } from "../exchange.ts";
import type { Verdict } from "../verdict.ts";
import { show, verdict } from "./describe.ts";
import { PATH_FIELD } from "./field-names.ts";
import { knownPathOutcome } from "./wire-judges.ts";

export function judgeBackendSide(exchange: Exchange): Verdict[] {
  const forwarded = exchange.forwarded ?? [];
  const wire = forwarded.find((f) => dialectOfPath(f.path)?.kind === "generate") ?? forwarded[0];
  if (!wire) return [];
  const outcome = knownPathOutcome(
    wire.path,
    exchange.route.backend,
    exchange.context.backendMount,
  );
  return [
    verdict({
      direction: "request",
      subject: PATH_FIELD,
      field: PATH_FIELD,
      kind: outcome.kind,
      detail: `client's not recorded → ${show(wire.path)} (${outcome.note})`,
      cause: outcome.cause,
    }),
  ];
}
