import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ModelFileNotFoundError } from "../../engine/model-errors.js";

/** The trained demo model's file, shipped in the package's `models/` folder. */
export const DEMO_MODEL_FILE = "narrowgauge-weather.q8_0.gguf";

/**
 * The path of the trained demo model: `models/` at the package's root,
 * found by walking up from this file (the source tree and the built `dist/`
 * sit at different depths). A ModelFileNotFoundError when the package was
 * installed without it.
 */
export function demoModelFile(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(directory, "models", DEMO_MODEL_FILE);
    if (existsSync(candidate)) return candidate;
    directory = dirname(directory);
  }
  throw new ModelFileNotFoundError(join("models", DEMO_MODEL_FILE), false);
}
