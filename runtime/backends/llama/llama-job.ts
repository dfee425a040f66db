import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { abortableJob } from "../../engine/abortable-job.js";
import { decodeUnderGrammar } from "../../engine/decode/decode-under-grammar.js";
import type { GenerateRequest } from "../../engine/model-port.js";
import type { SessionJob } from "../../engine/serial-session.js";
import { llamaGrammar } from "../../llama-cpp/llama-grammar-cache.js";
import { llamaEngine } from "./llama-engine.js";
import type { OpenedModel } from "./open-model.js";
import { typedDisposal } from "../../llama-cpp/disposed-error.js";

/**
 * One generation on a sequence of a node-llama-cpp context, taking turns
 * with other sequences' generations (opened.decoding), answering at once
 * when its signal fires (see abortableJob). The grammar is parsed (once per
 * text) before the generation takes its turn; a sequence starting empty
 * loads the prompt cache first, and a generation that evaluated the prompt
 * from nothing stores it there. A model disposed under the generation is a
 * ModelDisposedError.
 */
export function llamaJob(opened: OpenedModel, sequence: LlamaContextSequence, request: GenerateRequest): SessionJob {
  const prompt = request.prompt as Token[];
  const work = llamaGrammar(opened.llama, request.gbnf).then(() =>
    opened.decoding.run(async () => {
      const cached = opened.promptCache && sequence.contextTokens.length === 0 ? await opened.promptCache.restore(sequence, prompt) : null;
      const generation = await decodeUnderGrammar(llamaEngine(sequence), request);
      if (cached && cached.restored === 0 && generation.stopReason !== "aborted") await opened.promptCache!.store(sequence, prompt);
      return generation;
    }),
  ).catch(async (error: unknown) => Promise.reject(await typedDisposal(error)));
  return abortableJob(request, work);
}
