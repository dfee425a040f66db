import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Model-backed tests load llama.cpp in each worker; processes, not threads.
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
