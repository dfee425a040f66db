import { cachedModelFile, narrowgaugeCacheDir } from "../cache-dir.js";
import { forgeTinyModel, TINY_MODEL_FORMAT_VERSION } from "./forge-tiny-model.js";

/** Seed of the built-in tiny model when none is given. */
export const DEFAULT_TINY_MODEL_SEED = 1;

/** Returns the path of the tiny model forged with `seed`, forging it on first use. */
export function tinyModelFile(seed: number = DEFAULT_TINY_MODEL_SEED, cacheDir = narrowgaugeCacheDir()): Promise<string> {
  return cachedModelFile(`tiny-random-v${TINY_MODEL_FORMAT_VERSION}-seed-${seed}.gguf`, () => forgeTinyModel(seed), cacheDir);
}
