// Launcher for @musistudio/llms, a library with no executable of its own (it is the server
// inside claude-code-router). argv: <package dir> <config.json>. The config is handed over
// as `initialConfig`, as the package's Server constructor takes it. The CommonJS build is
// used: the ESM build (1.0.53) fails at import with `Dynamic require of "child_process"`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const [packageDir, configPath] = process.argv.slice(2);
const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const loaded = createRequire(join(packageDir, "package.json"))(join(packageDir, pkg.main));
const Server = loaded.default ?? loaded;
const initialConfig = JSON.parse(readFileSync(configPath, "utf8"));
const server = new Server({ initialConfig, logger: true });
await server.start();
