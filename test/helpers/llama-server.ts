import { existsSync } from "node:fs";
import { join } from "node:path";
import { llamaSources, serverBuildDir } from "../../runtime/backends/served/llama-server-build.js";

/**
 * The llama-server that `npm run server:build` builds from node-llama-cpp's
 * own llama.cpp (cached per llama.cpp commit). Tests against a real server
 * skip, saying why, where it has not been built; CI builds it first and sets
 * NARROWGAUGE_REQUIRE_SERVER, so there a missing server is a failure.
 */
export const SERVER_BINARY = join(serverBuildDir((await llamaSources()).commit), "bin", "llama-server");
export const hasServer = existsSync(SERVER_BINARY);

if (!hasServer) {
  if (process.env.NARROWGAUGE_REQUIRE_SERVER) throw new Error(`no llama-server at ${SERVER_BINARY}, and NARROWGAUGE_REQUIRE_SERVER is set`);
  console.warn(`[narrowgauge tests] skipping llama-server tests: none built at ${SERVER_BINARY} (run npm run server:build, once, offline).`);
}
