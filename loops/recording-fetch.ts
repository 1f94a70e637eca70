/**
 * The `fetch` an agent's SDK is given: every call goes to the route's ingress on the gateway
 * (whatever URL the SDK built from its base URL: gateways mount their APIs at paths the
 * SDKs' own suffixes do not always match), through the sweep's node:http client, and each
 * exchange is kept byte for byte as the evidence of the loop. The SDK then reads the bytes
 * as a real client's fetch would hand them over (decompressed).
 */
import { replayedResponse } from "../sweep/client-sdk/sdk-view.ts";
import { type ClientResponse, sendRequest } from "../sweep/http-client.ts";

export interface ClientExchange {
  /** Path and query on the gateway. */
  path: string;
  headers: [string, string][];
  body: string;
  response: ClientResponse;
}

export function recordingFetch(
  baseUrl: string,
  path: string,
  timeoutMs: number,
  exchanges: ClientExchange[],
): typeof fetch {
  return async (_input, init) => {
    const headers: [string, string][] = [...new Headers(init?.headers).entries()];
    const body = typeof init?.body === "string" ? init.body : "";
    const response = await sendRequest({
      method: init?.method ?? "POST",
      url: baseUrl + path,
      headers: Object.fromEntries(headers),
      body,
      timeoutMs,
    });
    exchanges.push({ path, headers, body, response });
    if (response.transportError) {
      throw new TypeError(`fetch failed: ${response.transportError}`);
    }
    return replayedResponse(response);
  };
}
