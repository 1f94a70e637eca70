import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { KEY_SHAPES } from "../../dialects/credentials.ts";
import { CLIENT_DIALECTS, DIALECTS } from "../../dialects/dialect.ts";
import {
  attributeOf,
  credentialField,
  headerField,
  isFailureField,
  isReplyFeature,
  PATH_FIELD,
} from "../lens/field-names.ts";
import { requestNoEquivalent } from "../lens/no-equivalent.ts";
import { buildClientRequest } from "./build.ts";
import { CANARIES, CANARY_VALUES, canariesOf } from "./canaries.ts";
import { CORPUS } from "./index.ts";
import { AXES, probeSchema } from "./probe.ts";

/**
 * Fields the lens's spelling table does not have yet; each is listed in docs/probes.md as a
 * request to the lens. A new entry here needs a reason.
 */
const FIELDS_MISSING_FROM_LENS_TABLE = new Set([
  // Gemini's OpenAI-compatible spelling of a replayed thought signature on a tool call.
  "messages[].tool_calls[].extra_content.google.thought_signature",
]);

describe("the built-in corpus", () => {
  it("has at least 180 probes over all three client dialects", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(180);
    for (const client of CLIENT_DIALECTS) {
      expect(CORPUS.filter((p) => p.client === client).length).toBeGreaterThanOrEqual(40);
    }
  });

  it("covers every axis but the reserved `failure` in every client dialect", () => {
    for (const client of CLIENT_DIALECTS) {
      const axes = new Set(CORPUS.filter((p) => p.client === client).map((p) => p.axis));
      for (const axis of AXES.filter((a) => a !== "failure")) {
        expect(axes.has(axis), `${client} has no ${axis} probe`).toBe(true);
      }
    }
  });

  it("has unique ids", () => {
    const ids = CORPUS.map((p) => p.id);
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(dupes).toEqual([]);
  });

  it("validates every probe against the schema user files are held to", () => {
    const failures = CORPUS.flatMap((probe) => {
      const result = probeSchema.safeParse(JSON.parse(JSON.stringify(probe)));
      return result.success ? [] : [`${probe.id}: ${result.error.message}`];
    });
    expect(failures).toEqual([]);
  });

  it("names every field the way the lens names its verdicts", () => {
    const unknown = CORPUS.flatMap((p) => {
      if (FIELDS_MISSING_FROM_LENS_TABLE.has(p.field)) return [];
      switch (p.axis) {
        case "request":
        case "content": {
          if (attributeOf(p.client, p.field)) return [];
          // A key the canonical model keeps raw: the lens names it by the key itself, only a
          // backend of the client's own dialect can carry it, and every other backend it runs
          // to has an absent row for it (`extras.<key>`), so the rows decide its verdict.
          const decided = (p.backends ?? DIALECTS).every(
            (b) => b === p.client || requestNoEquivalent(`extras.${p.field}`, b) !== undefined,
          );
          return decided && p.field in p.request ? [] : [`${p.id}: ${p.field}`];
        }
        case "response":
        case "stream":
        case "error":
          return isReplyFeature(p.field) ? [] : [`${p.id}: ${p.field}`];
        case "header":
          return p.field === headerField(p.field.slice("headers.".length)) ? [] : [p.id];
        case "credential": {
          const [, place, ...name] = p.field.split(".");
          const known = place === "header" || place === "body" || place === "query";
          return known && p.field === credentialField(place, name.join(".")) ? [] : [p.id];
        }
        case "path":
          return p.field === PATH_FIELD ? [] : [p.id];
        case "failure":
          return isFailureField(p.field) ? [] : [`${p.id}: ${p.field}`];
        default:
          return [`${p.id}: axis ${p.axis}`];
      }
    });
    expect(unknown).toEqual([]);
  });

  it("builds every probe in each of its modes with the nonce in the first user text", () => {
    const nonce = "gc-0123456789abcdef";
    for (const probe of CORPUS) {
      for (const mode of probe.modes) {
        const built = buildClientRequest(probe, { nonce, mode, model: "probe-model" });
        const raw = JSON.stringify(built.body);
        expect(raw.split(nonce).length - 1, probe.id).toBe(1);
        expect(built.body.stream, probe.id).toBe(mode === "stream" ? true : undefined);
        expect(built.body.model, probe.id).toBe("probe-model");
      }
    }
  });

  it("registers known issues cited with a public issue link, or reproduced by a real-gateway test", () => {
    const known = CORPUS.flatMap((p) => (p.knownIssues ?? []).map((k) => ({ id: p.id, ...k })));
    expect(known.length).toBeGreaterThanOrEqual(5);
    const realGatewayTest = ["real-gateway.test.ts", "live-gateways.test.ts"]
      .map((f) => readFileSync(fileURLToPath(new URL(`../../sweep/${f}`, import.meta.url)), "utf8"))
      .join("\n");
    for (const issue of known) {
      if (issue.reproduced) {
        // A reproduced control names its evidence: the test that runs the real gateway.
        expect(issue.url, issue.id).toMatch(/^https:\/\/github\.com\//);
        expect(
          realGatewayTest,
          `${issue.id} is marked reproduced but no real-gateway test runs it`,
        ).toContain(`"${issue.id}"`);
      } else {
        // An upstream issue, or a published write-up at the commit it was read (never a
        // branch, whose content moves).
        expect(issue.url, issue.id).toMatch(
          /^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues\/\d+|blob\/[0-9a-f]{40}\/\S+)$/,
        );
      }
    }
  });
});

describe("credential canaries", () => {
  it("are distinct, and each credential probe carries exactly one", () => {
    expect(new Set(CANARY_VALUES).size).toBe(CANARY_VALUES.length);
    for (const probe of CORPUS.filter((p) => p.axis === "credential")) {
      expect(canariesOf(probe), probe.id).toHaveLength(1);
    }
  });

  it("no probe outside the credential axis carries one", () => {
    const carrying = CORPUS.filter((p) => p.axis !== "credential" && canariesOf(p).length > 0);
    expect(carrying.map((p) => p.id)).toEqual([]);
  });

  it("look like provider keys, so key-shape redaction catches them even unnamed", () => {
    const shaped = Object.entries(CANARIES).filter(([, value]) =>
      KEY_SHAPES.some((shape) => new RegExp(shape.source).test(value)),
    );
    // Azure keys are bare hex and org/project ids are not keys: redaction finds those by
    // header name or because the sweep passes CANARY_VALUES as secrets.
    expect(shaped.map(([name]) => name).sort()).toEqual(
      [
        "authorization",
        "bodyApiKey",
        "extraHeadersKey",
        "googApiKey",
        "queryKey",
        "xApiKey",
      ].sort(),
    );
  });
});

describe("the reference sweep's findings", () => {
  it("each names a probe of the corpus and a gateway gatecheck knows", async () => {
    const { REFERENCE_FINDINGS } = await import("./reference-findings.ts");
    const { BUILTIN_ADAPTERS } = await import("../../gateways/registry.ts");
    const names = new Set(BUILTIN_ADAPTERS.map((a) => a.name));
    for (const [id, issues] of Object.entries(REFERENCE_FINDINGS)) {
      expect(
        CORPUS.some((p) => p.id === id),
        id,
      ).toBe(true);
      for (const issue of issues)
        expect(names.has(issue.gateway), `${id}: ${issue.gateway}`).toBe(true);
    }
  });
});
