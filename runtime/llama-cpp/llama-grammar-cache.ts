import type { Llama, LlamaGrammar } from "node-llama-cpp";
import { BoundedCache } from "../../base/bounded-cache.js";
import { GrammarRejectedError } from "../engine/model-errors.js";

const cache = new WeakMap<Llama, BoundedCache<string, LlamaGrammar>>();

/** The llama.cpp grammar object for GBNF text, parsed once per binding. Throws GrammarRejectedError for a grammar llama.cpp's parser refuses. */
export async function llamaGrammar(llama: Llama, gbnf: string): Promise<LlamaGrammar> {
  let grammars = cache.get(llama);
  if (!grammars) cache.set(llama, (grammars = new BoundedCache(256)));
  const cached = grammars.get(gbnf);
  if (cached) return cached;
  try {
    return grammars.set(gbnf, await llama.createGrammar({ grammar: gbnf }));
  } catch (error) {
    throw new GrammarRejectedError(gbnf, error);
  }
}
