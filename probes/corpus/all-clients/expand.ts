/**
 * Probes that read the same in every client dialect (credentials, paths, replies, streams,
 * errors) are written once as templates and expanded per client: `reply-finish-length`
 * becomes `am-reply-finish-length`, `oc-reply-finish-length`, `or-reply-finish-length`.
 * The expansion is mechanical (prefix the id, add the client's tool spelling), so each
 * template still reads as the probe it becomes.
 */

import type { StagedReply } from "../../../dialects/canonical-reply-schema.ts";
import { CLIENT_DIALECTS, type ClientDialect } from "../../../dialects/dialect.ts";
import { CLIENT_PREFIX, type KnownIssue, type Probe } from "../probe.ts";
import { TOOLS } from "../shared.ts";

export interface ProbeTemplate extends Omit<Probe, "id" | "client" | "request" | "knownIssues"> {
  /** The id without its client prefix. */
  slug: string;
  request?: Record<string, unknown>;
  /** Fragments spelled in one client dialect, merged over `request` for that client. */
  requestFor?: Partial<Record<ClientDialect, Record<string, unknown>>>;
  /** Add the probe tools in the client's spelling (replies that call a tool). */
  withTools?: boolean;
  knownIssues?: Partial<Record<ClientDialect, readonly KnownIssue[]>>;
  /** Clients the probe applies to; absent = all three. */
  clients?: readonly ClientDialect[];
}

export function expandTemplates(templates: readonly ProbeTemplate[]): Probe[] {
  const out: Probe[] = [];
  for (const template of templates) {
    const { slug, request, requestFor, withTools, knownIssues, clients, ...rest } = template;
    for (const client of clients ?? CLIENT_DIALECTS) {
      const known = knownIssues?.[client];
      out.push({
        ...rest,
        id: `${CLIENT_PREFIX[client]}-${slug}`,
        client,
        request: {
          ...(withTools ? { tools: TOOLS[client] } : {}),
          ...request,
          ...requestFor?.[client],
        },
        ...(known ? { knownIssues: known } : {}),
      });
    }
  }
  return out;
}

/**
 * Token counts every canned reply carries unless the probe gives its own: each provider's API
 * always reports usage, and a gateway that reads it unconditionally (Portkey's Anthropic
 * transformer does) would otherwise fail on a reply no real upstream sends.
 */
export const DEFAULT_REPLY_USAGE = { inputTokens: 12, outputTokens: 9 } as const;

/** A staged reply with its `extras` and usage filled in, so reply literals stay short. */
export function reply(
  fields: Omit<StagedReply, "extras"> & { extras?: StagedReply["extras"] },
): StagedReply {
  return { extras: {}, usage: { ...DEFAULT_REPLY_USAGE }, ...fields };
}
