/**
 * Column specs as users type them: `portkey`, `portkey@1.15.2`, `portkey@1.15.2+locked`.
 * A missing version means the adapter's pinned default.
 */
import { GatewayError, type GatewaySpec } from "./adapter.ts";

const SPEC = /^([a-z0-9][a-z0-9._-]*)(?:@([0-9A-Za-z._-]+))?(?:\+([a-z0-9-]+))?$/;

export function parseGatewaySpec(
  text: string,
  defaultVersion?: (name: string) => string,
): GatewaySpec {
  const match = SPEC.exec(text.trim());
  if (!match) {
    throw new GatewayError(
      "bad-spec",
      `gateway spec "${text}": expected NAME[@VERSION][+VARIANT], e.g. portkey@1.15.2+locked`,
    );
  }
  const name = match[1] ?? "";
  const version = match[2] ?? defaultVersion?.(name);
  if (!version) {
    throw new GatewayError("bad-spec", `gateway spec "${text}": no version given and no default`);
  }
  const spec: GatewaySpec = { name, version };
  if (match[3]) spec.variant = match[3];
  return spec;
}
