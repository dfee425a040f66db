import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The third-party Llama-2 fixture lives in ../shared beside the checkout; a
 * user's clone has no ../shared, so tests using it skip and say why.
 */
export const LLAMA2_FIXTURE = fileURLToPath(new URL("../../../shared/fixtures/llama2-tiny-random.gguf", import.meta.url));
export const hasLlama2Fixture = existsSync(LLAMA2_FIXTURE);

if (!hasLlama2Fixture) {
  console.warn(`[narrowgauge tests] skipping Llama-2 fixture tests: ${LLAMA2_FIXTURE} is absent (it exists only beside the project's own checkout).`);
}

/** The trained fixture: a small model that learned the weather demo's job (see its README beside it). */
export const TRAINED_FIXTURE = fileURLToPath(new URL("../../../shared/fixtures/micro-weather.gguf", import.meta.url));
export const hasTrainedFixture = existsSync(TRAINED_FIXTURE);

if (!hasTrainedFixture) {
  console.warn(`[narrowgauge tests] skipping trained-fixture tests: ${TRAINED_FIXTURE} is absent (it exists only beside the project's own checkout).`);
}
