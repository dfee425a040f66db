import { ModelDisposedError } from "../engine/model-errors.js";
import { loadedNodeLlamaCpp, nodeLlamaCpp } from "./node-llama-cpp.js";

/** node-llama-cpp's DisposedError (the model or context was disposed under a run) as narrowgauge's ModelDisposedError; any other error as it is. */
export function typedDisposalNow(error: unknown): unknown {
  const DisposedError = loadedNodeLlamaCpp()?.DisposedError;
  return DisposedError && error instanceof DisposedError ? new ModelDisposedError(error) : error;
}

/** typedDisposalNow, once node-llama-cpp is loaded. */
export async function typedDisposal(error: unknown): Promise<unknown> {
  await nodeLlamaCpp();
  return typedDisposalNow(error);
}
