/**
 * No secret on disk, in any output (issue 24): one of each common provider key shape and a
 * password-like value are planted in a probe's headers, query and body and in the sweep's
 * environment; a sweep (the direct column) and every report are run as a user runs them, and
 * every file written is scanned, including the HTML report's compressed block, base64 runs
 * inside any file (stored bodies), and every cell of the database.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { databaseText, filesUnder, readable } from "./disk-text.ts";

const CLI = fileURLToPath(new URL("../scripts/gatecheck.mjs", import.meta.url));

/** Made up, one per shape; the prefixless ones are secrets only by name or environment. */
const PLANTED = {
  xai: `xai-${"Xq".repeat(4)}${"9".repeat(40)}`,
  huggingFace: `hf_${"Fz".repeat(17)}`,
  github: `ghp_${"Gt7".repeat(12)}`,
  githubFine: `github_pat_11${"B".repeat(20)}_${"c".repeat(40)}`,
  awsId: "AKIAZXCVBNMLKJHGFDSA",
  awsSecret: "bPxRfiCYEXAMPLEKEYwJalrXUtnFEMIK7MDENG11",
  mistral: "Kc2Hd7Jf4Lg9Sa1Ce3Zx8Qw2Lm4Np6Rt",
  azure: "0cca0a4e1111111111111111111c0d3e",
  groq: `gsk_${"Qp".repeat(26)}`,
  openRouter: `sk-or-v1-${"7b".repeat(32)}`,
  deepSeek: `sk-${"5e".repeat(16)}`,
  moonshot: `sk-${"Mn".repeat(24)}`,
  password: "Tr0ub4dor&3-horse-staple",
};

const ENVIRONMENT = {
  XAI_API_KEY: PLANTED.xai,
  HF_TOKEN: PLANTED.huggingFace,
  GITHUB_TOKEN: PLANTED.github,
  AWS_ACCESS_KEY_ID: PLANTED.awsId,
  AWS_SECRET_ACCESS_KEY: PLANTED.awsSecret,
  MISTRAL_API_KEY: PLANTED.mistral,
  AZURE_OPENAI_API_KEY: PLANTED.azure,
  DB_PASSWORD: PLANTED.password,
};

const PROBE = {
  id: "oc-secret-scan",
  client: "openai-chat",
  axis: "request",
  field: "metadata",
  headers: {
    "x-trace-xai": PLANTED.xai,
    "x-hf": `token ${PLANTED.huggingFace}`,
    "x-custom-token": PLANTED.mistral,
    "x-password": PLANTED.password,
    "x-aws": PLANTED.awsId,
  },
  query: { q: PLANTED.github, sig: PLANTED.openRouter },
  request: {
    metadata: {
      fine: PLANTED.githubFine,
      aws: `aws_secret_access_key=${PLANTED.awsSecret}`,
      // Prefixless and under plain names: only the environment marks these.
      note: PLANTED.mistral,
      deployment: PLANTED.azure,
      groq: PLANTED.groq,
      deepseek: PLANTED.deepSeek,
      moonshot: PLANTED.moonshot,
    },
    user: PLANTED.password,
  },
  modes: ["non-stream", "stream"],
  severity: "low",
  note: "every planted secret arrives redacted, and no file the sweep writes holds one",
};

const dir = mkdtempSync(join(tmpdir(), "gatecheck-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gatecheck(args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    timeout: 240_000,
    env: { ...process.env, ...ENVIRONMENT },
  });
  if (run.status !== 0) {
    throw new Error(`gatecheck ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  }
  return run;
}

describe("a sweep with secrets planted in headers, query, body and environment", () => {
  it("writes none of them to any file: records, database, MATRIX.md, JUnit, JSON, HTML", () => {
    const probes = join(dir, "probes");
    const out = join(dir, "out");
    mkdirSync(probes);
    writeFileSync(join(probes, "secret-scan.json"), JSON.stringify([PROBE]));
    const db = join(out, "gc.db");
    gatecheck([
      "sweep",
      "--gateways",
      "direct",
      "--probes",
      PROBE.id,
      "--probes-dir",
      probes,
      "--repeats",
      "1",
      "--out",
      out,
      "--db",
      db,
      "--json",
    ]);
    const reports = join(out, "reports");
    mkdirSync(reports);
    gatecheck([
      "report",
      "--db",
      db,
      "--md",
      join(reports, "matrix.md"),
      "--junit",
      join(reports, "junit.xml"),
      "--html",
      join(reports, "report.html"),
      "--json",
      join(reports, "summary.json"),
    ]);
    const files = filesUnder(out);
    const kinds = files.map((f) => f.split(".").pop());
    for (const kind of ["jsonl", "db", "md", "xml", "html", "json"]) expect(kinds).toContain(kind);
    const html = readFileSync(join(reports, "report.html"), "utf8");
    const block = /id="gc-details"[^>]*>([^<]+)</.exec(html)?.[1] ?? "";
    // The block holds the stored bytes of every cell, the planted request's among them.
    expect(gunzipSync(Buffer.from(block, "base64")).toString()).toContain("x-custom-token");
    const leaks: string[] = [];
    for (const file of files) {
      const text = readable(readFileSync(file).toString("latin1"));
      const withDb = file.endsWith(".db") ? `${text}\n${readable(databaseText(file))}` : text;
      for (const [name, secret] of Object.entries(PLANTED)) {
        if (withDb.includes(secret)) leaks.push(`${name} in ${file.slice(out.length)}`);
      }
    }
    expect(leaks).toEqual([]);
    // The probe did run and was judged: the secrets were sent, and redacted where stored.
    expect(readFileSync(join(reports, "matrix.md"), "utf8")).toContain("direct");
    expect(databaseText(db)).toContain("[REDACTED:");
  });
});
