/**
 * node-llama-cpp's values (getLlama, its wrappers, its sampler's classes),
 * loaded on first use. Its module graph awaits at the top level, which
 * require() cannot load; importing it lazily keeps narrowgauge's own graph
 * free of top-level await, so a CommonJS app can require("narrowgauge") on
 * every supported Node (22.12 and later). Types are imported as usual: they cost nothing at run time.
 */
let loaded: Promise<typeof import("node-llama-cpp")> | undefined;
let resolved: typeof import("node-llama-cpp") | undefined;

export function nodeLlamaCpp(): Promise<typeof import("node-llama-cpp")> {
  loaded ??= import("node-llama-cpp").then((module) => (resolved = module));
  return loaded;
}

/** node-llama-cpp's values once loaded (a loaded model implies it), for code that cannot wait. */
export const loadedNodeLlamaCpp = (): typeof import("node-llama-cpp") | undefined => resolved;
