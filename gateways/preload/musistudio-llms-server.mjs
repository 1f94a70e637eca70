// Launcher for @musistudio/llms, a library with no executable of its own (it is the server
// inside claude-code-router). argv: <package dir> <config.json>. The config is handed over
// as `initialConfig`, as the package's Server constructor takes it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, configPath] = process.argv.slice(2);
const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const { default: Server } = await import(pathToFileURL(join(packageDir, pkg.module)).href);
const initialConfig = JSON.parse(readFileSync(configPath, "utf8"));
const server = new Server({ initialConfig, logger: true });
await server.start();
