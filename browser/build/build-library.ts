import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForPage } from "./bundle.js";

/**
 * `narrowgauge/browser` as npm ships it (run by `npm run build`): one ES
 * module for a page's bundler, with node-llama-cpp's chat wrappers inside
 * and wllama left to the app (an optional peer dependency; the app serves
 * its WebAssembly files).
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
await bundleForPage(join(ROOT, "browser/index.ts"), join(ROOT, "dist/browser/narrowgauge.js"), { external: ["@wllama/wllama", "@wllama/wllama/*"], minify: true });
