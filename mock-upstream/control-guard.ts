/**
 * Keeps web pages away from the control API. The Host check (host-guard.ts) stops a page that
 * reaches the mock through a name of its own (DNS rebinding); a page on any other origin can
 * still send a "simple" cross-site request straight to `http://127.0.0.1:9990`: a `text/plain`
 * POST needs no CORS preflight, so without this a page in any browser could stage replies or
 * wipe the records. A browser marks every such request, and the control API refuses it:
 *
 * - an `Origin` that is not the mock's own (`http://` + the request's Host); a browser sends
 *   `Origin` on every cross-origin POST, and `null` from sandboxed frames and `file:` pages;
 * - `Sec-Fetch-Site` other than `same-origin` or `none` (a typed URL). `same-site` is refused
 *   too: a site ignores the port, so every local dev server (`http://127.0.0.1:3000`) is
 *   same-site with a mock on loopback, and that tells nothing about who sent the request;
 * - a body whose `content-type` is not JSON (415): no browser can send `application/json`
 *   across origins without a preflight, which the mock never answers with CORS headers.
 *   A body with no content type is read as JSON (what `stage()` callers and scripts send).
 *
 * Gateways never call the control API, so none of this touches traffic.
 * @see https://fetch.spec.whatwg.org/#cors-safelisted-request-header
 * @see https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header
 */
import { isJsonContentType } from "./request-facts.ts";

export interface ControlRefusal {
  status: 403 | 415;
  error: string;
}

/** The only `Sec-Fetch-Site` values a control request may carry (absent is allowed too). */
const TRUSTED_FETCH_SITES = new Set(["same-origin", "none"]);

/**
 * Undefined when a control request may be served, else the status and message to refuse it.
 * `header` reads one request header by lower-case name.
 */
export function controlRefusal(
  header: (name: string) => string | undefined,
): ControlRefusal | undefined {
  const origin = header("origin");
  if (origin !== undefined) {
    const own = `http://${header("host") ?? ""}`.toLowerCase();
    if (origin.trim().toLowerCase() !== own) {
      return {
        status: 403,
        error: `Origin ${JSON.stringify(origin)} is not this mock's (${own}); the control API refuses requests from web pages. Call it from a script, a test or curl, which send no Origin`,
      };
    }
  }
  const site = header("sec-fetch-site");
  if (site !== undefined && !TRUSTED_FETCH_SITES.has(site.trim().toLowerCase())) {
    return {
      status: 403,
      error: `Sec-Fetch-Site ${JSON.stringify(site)}: the control API refuses requests a browser sends on behalf of another site. Call it from a script, a test or curl`,
    };
  }
  const type = header("content-type");
  if (type !== undefined && !isJsonContentType(type)) {
    return {
      status: 415,
      error: `content-type ${JSON.stringify(type)} is not JSON; the control API takes application/json bodies only`,
    };
  }
  return undefined;
}
