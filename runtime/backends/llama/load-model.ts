import type { ModelPort } from "../../engine/model-port.js";
import { pooledModelPort } from "../../engine/pooled-model-port.js";
import { frameWritable } from "../../llama-cpp/control-token-ban.js";
import { typedDisposalNow } from "../../llama-cpp/disposed-error.js";
import { llamaJob } from "./llama-job.js";
import { llamaGrammar } from "../../llama-cpp/llama-grammar-cache.js";
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

/** Adapts an opened GGUF model to the loop's model port: each run holds one of the context's sequences. */
export function llamaModelPort(opened: OpenedModel): LlamaModelPort {
  const port = pooledModelPort({
    vocabulary: opened.model,
    chatRenderer: opened.chatRenderer,
    facts: {
      file: opened.file,
      threads: opened.threads,
      builtIn: opened.builtIn,
      parameters: parameterCount(opened),
      contextSize: opened.context.contextSize,
      sessions: opened.sequences.size,
      decoder: "narrowgauge",
    },
    pool: opened.sequences,
    checkGrammar: async (gbnf) => void (await llamaGrammar(opened.llama, gbnf)),
    start: (sequence, request) => llamaJob(opened, sequence, request),
    writesControlToken: frameWritable(opened.model),
  });
  // A model disposed under a run fails its tokenizer too: the same typed error as its generations.
  const tokenize: typeof port.tokenize = (text) => {
    try {
      return port.tokenize(text);
    } catch (error) {
      throw typedDisposalNow(error);
    }
  };
  return { ...port, tokenize, opened, dispose: () => opened.dispose() };
}

/**
 * Loads a model for runAgent: a GGUF path, `"tiny"` / `"tiny:<seed>"` for the
 * built-in random-weight model (the default), `"demo"` for the trained demo
 * model, or a node-llama-cpp URI (`hf:<user>/<repo>/<file>`), downloaded once
 * with a progress display.
 */
export async function loadModel(source: OpenModelOptions["source"] = "tiny", options: Omit<OpenModelOptions, "source"> = {}): Promise<LlamaModelPort> {
  return llamaModelPort(await openModel({ ...options, source }));
}
