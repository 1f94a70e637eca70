/**
 * Test helpers around `fixtures/fake-gateway.mjs`: a generic-adapter definition whose
 * command carries extra flags, and a wait for a pid printed in the gateway's log.
 */
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { GatewayAdapter } from "../adapter.ts";
import { genericAdapter, parseGatewayFile } from "../generic.ts";

export const FAKE_GATEWAY_JSON = fileURLToPath(
  new URL("../fixtures/fake-gateway.json", import.meta.url),
);
export const FAKE_GATEWAY_MJS = fileURLToPath(
  new URL("../fixtures/fake-gateway.mjs", import.meta.url),
);

/** The fixture's adapter with `flags` appended to the command (`--start-delay=5000`). */
export function fakeGatewayAdapter(flags: string[] = [], readyTimeoutMs?: number): GatewayAdapter {
  const json = JSON.parse(readFileSync(FAKE_GATEWAY_JSON, "utf8"));
  json.command = [process.execPath, FAKE_GATEWAY_MJS, ...json.command.slice(2), ...flags];
  if (readyTimeoutMs) json.readiness.timeoutMs = readyTimeoutMs;
  return genericAdapter(parseGatewayFile(json, FAKE_GATEWAY_JSON), dirname(FAKE_GATEWAY_JSON));
}

/** Poll a log file until `pattern` (with one capture group of digits) appears. */
export async function pidFromLog(
  logPath: string,
  pattern: RegExp,
  withinMs = 10_000,
): Promise<number> {
  const until = Date.now() + withinMs;
  for (;;) {
    let text = "";
    try {
      text = readFileSync(logPath, "utf8");
    } catch {
      // not written yet
    }
    const match = pattern.exec(text);
    if (match?.[1]) return Number(match[1]);
    if (Date.now() > until) throw new Error(`no ${pattern} in ${logPath}: ${text.slice(-300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
