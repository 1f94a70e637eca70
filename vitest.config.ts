import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{dialects,mock-upstream,probes,gateways,sweep,results,scripts,loops}/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/fixtures/**"],
    // Gateway and sweep tests start real processes; the 2-core CI machine needs headroom.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
