import { ModelDisposedError } from "../engine/model-errors.js";
import { nodeLlamaCpp } from "./node-llama-cpp.js";

/** node-llama-cpp's DisposedError (the model or context was disposed under a run) as narrowgauge's ModelDisposedError; any other error as it is. */
export async function typedDisposal(error: unknown): Promise<unknown> {
  const { DisposedError } = await nodeLlamaCpp();
  return error instanceof DisposedError ? new ModelDisposedError(error) : error;
}
