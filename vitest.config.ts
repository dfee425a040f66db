import { defineConfig } from "vitest/config";

/**
 * Two tiers. `npm test` runs the contributor's tier ("unit"): pure units, the
 * scripted model, the built-in tiny model and the shipped demo model, every
 * source room exercised, in minutes. `npm run test:all` adds the full tier
 * (files named `*.full.test.ts`): models forged around real tokenizers, the
 * shared fixtures, real llama-servers and MCP servers, the browser, the
 * command line and packed-tarball apps in their own processes, the trainer
 * and the soak. CI runs both.
 *
 * A unit file may sample what its full-tier twin runs at full count
 * (test/tier.ts: `provide.tier` below). No unit test asserts
 * wall-clock time against a constant; the time limits below only catch a
 * hang, several times what the slowest test takes on a loaded machine
 * (`npm run test:under-load` runs the unit tier beside a CPU hog on every core).
 */
export default defineConfig({
  test: {
    // Model-backed tests load llama.cpp in each worker; processes, not threads.
    pool: "forks",
    testTimeout: 300_000,
    hookTimeout: 300_000,
    projects: [
      // Two workers even on two cores (vitest's default leaves one core to itself): the units' models run on one thread each.
      // Not isolated: a worker runs its files one after another in one module graph, so each file does not import the
      // library, node-llama-cpp and its binding afresh (measured on 30 short files: 70 s isolated, 16 s not). Files restore
      // what they stub or spy on, and dispose what they open.
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/**/*.full.test.ts"], maxWorkers: 2, isolate: false, provide: { tier: "unit" } } },
      // One at a time: these start servers, browsers and processes of their own, some timed against each other.
      { extends: true, test: { name: "full", include: ["test/**/*.full.test.ts"], maxWorkers: 1, provide: { tier: "full" } } },
    ],
  },
});
