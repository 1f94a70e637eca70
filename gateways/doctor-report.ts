/**
 * What `gateways doctor --json` prints: one gateway's route checks as data, the same checks
 * the text output shows (gateways/doctor.ts) and the sweep's route preflight runs. The schema
 * is the contract README documents; a caller can parse the output with it.
 */
import { z } from "zod";

export const routeCheckSchema = z.object({
  route: z.string(),
  mode: z.enum(["non-stream", "stream"]),
  /** What the gateway's route table says of the route. */
  expected: z.enum(["works", "fails", "untested"]),
  clientStatus: z.number().int().optional(),
  /** Paths on which the mock received the request (empty: it never reached the mock). */
  reached: z.array(z.string()),
  /** The client got a 2xx and the mock served the forwarded request. */
  worked: z.boolean(),
  /** `worked` agrees with the route table (or the table says `untested`). */
  asDocumented: z.boolean(),
  detail: z.string(),
  /** Set when a sweep would not read this route and mode: its preflight's reason. */
  preflight: z.object({ reason: z.string(), unservedPath: z.boolean() }).optional(),
});

export const doctorReportSchema = z.object({
  /** `name@version[+variant]`. */
  gateway: z.string(),
  /**
   * `ok`: every check as documented and the process group gone after stop; `failed`: a check
   * differs from the route table or the process outlived its stop; `not-run`: the gateway did
   * not install or start (`reason` says why). Exit 0 for `ok`, 1 otherwise.
   */
  status: z.enum(["ok", "failed", "not-run"]),
  reason: z.string().optional(),
  baseUrl: z.string().optional(),
  pid: z.number().int().optional(),
  stopped: z.object({ how: z.string(), gone: z.boolean() }).optional(),
  checks: z.array(routeCheckSchema),
  /** Requests the mock received that carried no check's nonce (model lists, health polls). */
  background: z.object({ requests: z.number().int(), paths: z.array(z.string()) }),
});
export type DoctorReport = z.infer<typeof doctorReportSchema>;
