/**
 * A gateway described by a user's JSON file, no code needed:
 *
 * {
 *   "name": "my-gateway", "version": "1.2.0",
 *   "command": ["my-gateway", "--port", "{port}", "--config", "{workdir}/config.yaml"],
 *   "env": { "MYGW_LOG": "debug" },
 *   "configFiles": [{ "path": "config.yaml", "template": "upstream: {mockUrl}/v1\n" }],
 *   "readiness": { "path": "/health", "timeoutMs": 30000 },
 *   "routes": [{ "id": "openai-chat->anthropic-messages", "client": "openai-chat",
 *     "backend": "anthropic-messages", "ingressPath": "/v1/chat/completions",
 *     "headers": { "authorization": "Bearer {apiKey}" }, "model": "claude/{model}" }]
 * }
 *
 * Placeholders: {port}, {workdir}, {mockUrl} (the openai-chat listener), {mockUrl:<dialect>},
 * {fileDir} (the folder of the JSON file), and in routes {apiKey} and {model}. An unknown placeholder is an error at load time,
 * naming the file and the JSON path, never a literal `{typo}` sent to a gateway.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { z } from "zod";
import { CLIENT_DIALECTS, DIALECTS, type Dialect } from "../dialects/dialect.ts";
import type { GatewayAdapter, GatewayRoute, LaunchContext } from "./adapter.ts";
import { GatewayError } from "./adapter.ts";
import { binaryAdapter } from "./binary.ts";

const PLACEHOLDER = /\{([A-Za-z]+)(?::([a-z-]+))?\}/g;
const LAUNCH_NAMES = ["port", "workdir", "mockUrl", "fileDir"];
const ROUTE_NAMES = [...LAUNCH_NAMES, "apiKey", "model"];

const routeSchema = z.object({
  id: z.string().min(1),
  client: z.enum(CLIENT_DIALECTS),
  backend: z.enum(DIALECTS),
  ingressPath: z.string().startsWith("/"),
  streamIngressPath: z.string().startsWith("/").optional(),
  headers: z.record(z.string(), z.string()).default({}),
  model: z.string().default("{model}"),
  native: z.boolean().optional(),
  status: z.enum(["works", "fails", "untested"]).default("untested"),
  notes: z.string().optional(),
});

export const gatewayFileSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, "lower-case name: letters, digits, . _ -"),
  version: z.string().min(1).default("custom"),
  description: z.string().default("user-defined gateway"),
  command: z.array(z.string()).min(1),
  env: z.record(z.string(), z.string()).default({}),
  configFiles: z.array(z.object({ path: z.string().min(1), template: z.string() })).default([]),
  readiness: z
    .object({
      path: z.string().startsWith("/").default("/"),
      timeoutMs: z.number().int().positive().max(600_000).default(30_000),
    })
    .default({ path: "/", timeoutMs: 30_000 }),
  routes: z.array(routeSchema).min(1),
});

export type GatewayFile = z.infer<typeof gatewayFileSchema>;

/** Every placeholder in a string must be one we fill; returns the problems found. */
function checkPlaceholders(text: string, allowed: readonly string[], where: string): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) {
    const [whole, name, arg] = m;
    if (!name || !allowed.includes(name)) problems.push(`${where}: unknown placeholder ${whole}`);
    else if (
      arg !== undefined &&
      (name !== "mockUrl" || !(DIALECTS as readonly string[]).includes(arg))
    ) {
      problems.push(
        `${where}: bad placeholder ${whole} (only {mockUrl:<dialect>} takes an argument)`,
      );
    }
  }
  return problems;
}

export function parseGatewayFile(json: unknown, file: string): GatewayFile {
  const parsed = gatewayFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${file}: ${i.path.join(".") || "(root)"}: ${i.message}`,
    );
    throw new GatewayError("bad-config", issues.join("\n"));
  }
  const def = parsed.data;
  const problems = [
    ...def.command.flatMap((c, i) => checkPlaceholders(c, LAUNCH_NAMES, `${file}: command.${i}`)),
    ...Object.entries(def.env).flatMap(([k, v]) =>
      checkPlaceholders(v, LAUNCH_NAMES, `${file}: env.${k}`),
    ),
    ...def.configFiles.flatMap((c, i) =>
      checkPlaceholders(c.template, LAUNCH_NAMES, `${file}: configFiles.${i}.template`),
    ),
    ...def.routes.flatMap((r, i) => [
      ...Object.entries(r.headers).flatMap(([k, v]) =>
        checkPlaceholders(v, ROUTE_NAMES, `${file}: routes.${i}.headers.${k}`),
      ),
      ...checkPlaceholders(r.model, ROUTE_NAMES, `${file}: routes.${i}.model`),
    ]),
  ];
  for (const [i, c] of def.configFiles.entries()) {
    if (isAbsolute(c.path) || relative(".", c.path).startsWith("..")) {
      problems.push(
        `${file}: configFiles.${i}.path: must stay inside the work folder, got ${c.path}`,
      );
    }
  }
  if (problems.length) throw new GatewayError("bad-config", problems.join("\n"));
  return def;
}

type Values = {
  port?: number;
  workdir?: string;
  fileDir?: string;
  mockUrl?: (d: Dialect) => string;
  apiKey?: string;
  model?: string;
};

export function fillPlaceholders(text: string, values: Values): string {
  return text.replace(PLACEHOLDER, (whole, name: string, arg: string | undefined) => {
    if (name === "mockUrl" && values.mockUrl)
      return values.mockUrl((arg as Dialect) ?? "openai-chat");
    const value = (values as Record<string, unknown>)[name];
    return value === undefined ? whole : String(value);
  });
}

export function genericAdapter(def: GatewayFile, fileDir = process.cwd()): GatewayAdapter {
  const launchValues = (ctx: LaunchContext): Values => ({
    port: ctx.port,
    workdir: ctx.workdir,
    fileDir,
    mockUrl: ctx.mockUrl,
  });
  const routes = (): GatewayRoute[] =>
    def.routes.map((r) => {
      const route: GatewayRoute = {
        id: r.id,
        client: r.client,
        backend: r.backend,
        ingressPath: r.ingressPath,
        headers: (ctx) =>
          Object.fromEntries(
            Object.entries(r.headers).map(([k, v]) => [
              k,
              fillPlaceholders(v, { mockUrl: ctx.mockUrl, apiKey: ctx.apiKey }),
            ]),
          ),
        model: (backendModel) => fillPlaceholders(r.model, { model: backendModel }),
        native: r.native ?? r.client === r.backend,
        status: r.status,
      };
      if (r.streamIngressPath) route.streamIngressPath = r.streamIngressPath;
      if (r.notes) route.notes = r.notes;
      return route;
    });
  const adapter = binaryAdapter({
    name: def.name,
    description: def.description,
    binary: def.command[0] ?? "",
    async writeConfig(ctx) {
      const written: string[] = [];
      for (const file of def.configFiles) {
        const path = resolve(ctx.workdir, file.path);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, fillPlaceholders(file.template, launchValues(ctx)));
        written.push(path);
      }
      return written;
    },
    command: (ctx, binaryPath) => ({
      command: binaryPath,
      args: def.command.slice(1).map((a) => fillPlaceholders(a, launchValues(ctx))),
      env: Object.fromEntries(
        Object.entries(def.env).map(([k, v]) => [k, fillPlaceholders(v, launchValues(ctx))]),
      ),
      readyPath: def.readiness.path,
    }),
    routes,
  });
  return {
    ...adapter,
    defaultVersion: def.version,
    launch: (ctx) =>
      adapter.launch({ ...ctx, readyTimeoutMs: ctx.readyTimeoutMs ?? def.readiness.timeoutMs }),
  };
}

export async function loadGatewayFile(file: string): Promise<GatewayAdapter> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new GatewayError(
      "bad-config",
      `${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new GatewayError("bad-config", `${file}: not valid JSON (${(error as Error).message})`);
  }
  // Relative command paths in the file are relative to the file, not to the caller's cwd.
  const def = parseGatewayFile(json, file);
  const first = def.command[0] ?? "";
  if (first.startsWith("./") || first.startsWith("../")) {
    def.command[0] = join(dirname(resolve(file)), first);
  }
  return genericAdapter(def, dirname(resolve(file)));
}
