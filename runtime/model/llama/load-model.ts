import { samplingPresetFor } from "../sampling-presets.js";
import type { ModelPort } from "../model-port.js";
import { generateInOwnSession } from "../session-generation.js";
import { llamaSession } from "./llama-session.js";
import { openModel, type OpenModelOptions, type OpenedModel } from "./open-model.js";

export interface LlamaModelPort extends ModelPort {
  /** node-llama-cpp's own objects (model, context, sequence, chat wrapper), for what narrowgauge does not wrap. */
  readonly opened: OpenedModel;
  dispose(): Promise<void>;
}

/** Parameters counted from the GGUF's tensor shapes. */
function parameterCount(opened: OpenedModel): number | null {
  const tensors = opened.model.fileInfo.fullTensorInfo;
  if (!tensors || tensors.length === 0) return null;
  return tensors.reduce((total, tensor) => total + tensor.dimensions.reduce((product: number, dimension) => product * Number(dimension), 1), 0);
}

/** Adapts an opened GGUF model to the loop's model port. */
export function llamaModelPort(opened: OpenedModel): LlamaModelPort {
  const { model } = opened;
  const general = model.fileInfo.metadata.general;
  return {
    opened,
    chatWrapper: opened.chatWrapper,
    description: {
      name: general?.name ?? opened.file.split("/").pop() ?? opened.file,
      file: opened.file,
      wrapper: opened.chatWrapper.wrapperName,
      threads: opened.threads,
      builtIn: opened.builtIn,
      parameters: parameterCount(opened),
      sampling: samplingPresetFor({ architecture: general?.architecture, name: general?.name }),
      contextSize: opened.context.contextSize,
      sessions: opened.sequences.size,
    },
    tokenize: (text) => text.tokenize(model.tokenizer),
    detokenizeForSpy: (tokens) => model.detokenize(tokens as never[], true),
    openSession: async (signal) => llamaSession(opened, await opened.sequences.acquire(signal)),
    generate: (request) => generateInOwnSession(opened.sequences, (lease) => llamaSession(opened, lease), request),
    dispose: () => opened.dispose(),
  };
}

/**
 * Loads a model for runAgent: a GGUF path, `"tiny"` / `"tiny:<seed>"` for the
 * built-in random-weight model, or a node-llama-cpp URI (`hf:<user>/<repo>/<file>`),
 * downloaded once with a progress display.
 */
export async function loadModel(source: OpenModelOptions["source"] = "tiny", options: Omit<OpenModelOptions, "source"> = {}): Promise<LlamaModelPort> {
  return llamaModelPort(await openModel({ ...options, source }));
}
