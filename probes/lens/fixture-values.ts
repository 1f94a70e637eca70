/** For tests: every JSON file under the lens fixtures, parsed, in directory order. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const LENS_FIXTURES = join(import.meta.dirname, "fixtures");

export function fixtureJsonFiles(dir = LENS_FIXTURES): unknown[] {
  const out: unknown[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...fixtureJsonFiles(path));
    else if (name.endsWith(".json")) out.push(JSON.parse(readFileSync(path, "utf8")));
  }
  return out;
}
