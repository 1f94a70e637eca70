/**
 * Headers as every gatecheck file holds them: `[name, value]` pairs in wire order, repeats
 * kept, names in lower case (HTTP field names are case-insensitive, RFC 9110 §5.1; one case
 * means a reader compares names with `===`).
 */
import { z } from "zod";

export type HeaderPairs = [string, string][];

export const headerPairsSchema = z.array(
  z.tuple([z.string().regex(/^[^A-Z]+$/, "expected a lower-case name"), z.string()]),
);

/** Pairs with lower-case names. Pairs already lower-case are shared, not copied. */
export function lowerCasePairs(headers: readonly (readonly [string, string])[]): HeaderPairs {
  let out: HeaderPairs | undefined;
  for (let i = 0; i < headers.length; i++) {
    const pair = headers[i] as [string, string];
    const name = pair[0].toLowerCase();
    if (out) out.push(name === pair[0] ? pair : [name, pair[1]]);
    else if (name !== pair[0]) {
      out = headers.slice(0, i) as HeaderPairs;
      out.push([name, pair[1]]);
    }
  }
  return out ?? (headers as HeaderPairs);
}

/** The first value of a header; `name` in lower case. */
export function headerValue(
  headers: readonly (readonly [string, string])[],
  name: string,
): string | undefined {
  for (const pair of headers) if (pair[0] === name) return pair[1];
  return undefined;
}
