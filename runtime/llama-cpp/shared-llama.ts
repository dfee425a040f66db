import type { Llama } from "node-llama-cpp";
import { nodeLlamaCpp } from "./node-llama-cpp.js";

/** Which GPU backend llama.cpp may use (see OpenModelOptions.gpu). */
export type LlamaGpu = "auto" | false | "cuda" | "vulkan" | "metal";

const sharedLlamas = new Map<string, Promise<Llama>>();

/** The process-wide llama.cpp binding, loaded once per GPU choice. */
export function defaultLlama(gpu: LlamaGpu = "auto"): Promise<Llama> {
  const key = String(gpu);
  if (!sharedLlamas.has(key)) sharedLlamas.set(key, nodeLlamaCpp().then(({ getLlama }) => getLlama({ build: "never", gpu })));
  return sharedLlamas.get(key)!;
}
