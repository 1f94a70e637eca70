import { describe, expect, it } from "vitest";
import { CORPUS } from "./index.ts";

/** An issue or pull request, a commit, or a file at a fixed commit: links that do not move. */
const PINNED =
  /^https:\/\/github\.com\/[^/]+\/[^/]+\/(?:(?:issues|pull)\/\d+|commit\/[0-9a-f]{40}|blob\/[0-9a-f]{40}\/.+)$/;

describe("known-issue links", () => {
  it("point to an issue, a pull request or a commit, never to a branch that moves on", () => {
    const links = CORPUS.flatMap((p) => (p.knownIssues ?? []).map((k) => `${p.id} ${k.url}`));
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !PINNED.test(link.split(" ")[1] ?? ""))).toEqual([]);
  });
});
