import { build, type BuildOptions, type Plugin } from "esbuild";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NODE_LLAMA_CPP = join(dirname(createRequire(import.meta.url).resolve("node-llama-cpp")), "..");
const SHIM = join(ROOT, "browser/build/node-shim.js");

/** What the page takes of node-llama-cpp: its LlamaText and chat wrappers, from their own files (its package exports list only its Node entry). */
const NODE_LLAMA_CPP_FOR_PAGE = `
export { resolveChatWrapper } from ${JSON.stringify(join(NODE_LLAMA_CPP, "dist/chatWrappers/utils/resolveChatWrapper.js"))};
export { GeneralChatWrapper } from ${JSON.stringify(join(NODE_LLAMA_CPP, "dist/chatWrappers/GeneralChatWrapper.js"))};
export { ChatMLChatWrapper } from ${JSON.stringify(join(NODE_LLAMA_CPP, "dist/chatWrappers/ChatMLChatWrapper.js"))};
export { ChatWrapper } from ${JSON.stringify(join(NODE_LLAMA_CPP, "dist/ChatWrapper.js"))};
export { JinjaTemplateChatWrapper } from ${JSON.stringify(join(NODE_LLAMA_CPP, "dist/chatWrappers/generic/JinjaTemplateChatWrapper.js"))};
export { LlamaText, SpecialToken, SpecialTokensText } from ${JSON.stringify(join(NODE_LLAMA_CPP, "dist/utils/LlamaText.js"))};
`;

/**
 * Bundles narrowgauge for a page: node-llama-cpp resolves to its rendering
 * files alone (resolveChatWrapper's `instanceof LlamaModel` check meets an
 * empty class, the model itself never being in the page), Node built-ins to
 * an inert shim, and the Node entry (which the trace view and the demo's
 * tools import) to narrowgauge/browser, the same public API.
 */
const pagePlugin: Plugin = {
  name: "narrowgauge-page",
  setup(build) {
    build.onResolve({ filter: /^node-llama-cpp$/ }, () => ({ path: "node-llama-cpp", namespace: "narrowgauge-page" }));
    build.onLoad({ filter: /.*/, namespace: "narrowgauge-page" }, (args) =>
      args.path === "node-llama-cpp" ? { contents: NODE_LLAMA_CPP_FOR_PAGE, loader: "js", resolveDir: ROOT } : { contents: "export class LlamaModel {}", loader: "js" },
    );
    build.onResolve({ filter: /LlamaModel\/LlamaModel\.js$/ }, () => ({ path: "LlamaModel", namespace: "narrowgauge-page" }));
    build.onResolve({ filter: /^(node:)?(os|path|url|process|fs|fs\/promises|module|console|util|crypto|child_process|events|stream|worker_threads)$/ }, () => ({ path: SHIM }));
    build.onResolve({ filter: /^\.\.\/index\.js$/ }, (args) => (args.importer.startsWith(join(ROOT, "trace")) || args.importer.startsWith(join(ROOT, "demos")) ? { path: join(ROOT, "browser/index.ts") } : undefined));
  },
};

export const PAGE_BUILD: BuildOptions = { bundle: true, format: "esm", platform: "browser", target: "es2022", plugins: [pagePlugin], logLevel: "warning", legalComments: "none" };

/** Builds one page entry (or the library) into `outfile`. */
export async function bundleForPage(entry: string, outfile: string, options: BuildOptions = {}): Promise<void> {
  await build({ ...PAGE_BUILD, ...options, entryPoints: [entry], outfile });
}
