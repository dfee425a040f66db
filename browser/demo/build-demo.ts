import { copyFile, mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForPage } from "../build/bundle.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DEMO_OUT = join(ROOT, ".cache/browser-demo");
const WLLAMA = join(dirname(createRequire(import.meta.url).resolve("@wllama/wllama/esm/index.js")));

/**
 * Builds the demo page into .cache/browser-demo: the page's script (the
 * loop, guards, wllama and node-llama-cpp's chat wrappers in one module),
 * its HTML, wllama's two WebAssembly builds and the trained default model.
 */
export async function buildDemo(out = DEMO_OUT): Promise<string> {
  await mkdir(join(out, "wasm"), { recursive: true });
  await mkdir(join(out, "models"), { recursive: true });
  await bundleForPage(join(ROOT, "browser/demo/page.ts"), join(out, "page.js"), { minify: true, sourcemap: true });
  await copyFile(join(ROOT, "browser/demo/index.html"), join(out, "index.html"));
  await copyFile(join(WLLAMA, "single-thread/wllama.wasm"), join(out, "wasm/single-thread.wasm"));
  await copyFile(join(WLLAMA, "multi-thread/wllama.wasm"), join(out, "wasm/multi-thread.wasm"));
  await copyFile(join(ROOT, "models/narrowgauge-weather.q8_0.gguf"), join(out, "models/narrowgauge-weather.q8_0.gguf"));
  return out;
}
