import { defineConfig } from "vitest/config";

/**
 * Two tiers. `npm test` runs the contributor's tier ("unit"): pure units, the
 * scripted model, the built-in tiny model and the shipped demo model, every
 * source room exercised, in minutes. `npm run test:all` adds the full tier
 * (files named `*.full.test.ts`): models forged around real tokenizers, the
 * shared fixtures, real llama-servers and MCP servers, the browser, the
 * command line and packed-tarball apps in their own processes, the trainer
 * and the soak. CI runs both.
 */
export default defineConfig({
  test: {
    // Model-backed tests load llama.cpp in each worker; processes, not threads.
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      // Two workers even on two cores (vitest's default leaves one core to itself): the units' models run on one thread each.
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/**/*.full.test.ts"], maxWorkers: 2 } },
      // One at a time: these start servers, browsers and processes of their own, some timed against each other.
      { extends: true, test: { name: "full", include: ["test/**/*.full.test.ts"], maxWorkers: 1 } },
    ],
  },
});
