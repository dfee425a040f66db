import type { Llama, LlamaGrammar } from "node-llama-cpp";
import { NarrowgaugeError } from "./narrowgauge-error.js";

/** llama.cpp refused a grammar we compiled. Never silently replaced by unconstrained sampling (DESIGN invariant 6). */
export class GrammarRejectedError extends NarrowgaugeError {
  readonly code = "grammar-rejected";
  constructor(readonly grammar: string, cause: unknown) {
    super(`llama.cpp rejected the grammar: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

const MAX_CACHED = 256;
const cache = new WeakMap<Llama, Map<string, LlamaGrammar>>();

/** The llama.cpp grammar object for GBNF text, parsed once per binding. */
export async function llamaGrammar(llama: Llama, gbnf: string): Promise<LlamaGrammar> {
  let grammars = cache.get(llama);
  if (!grammars) cache.set(llama, (grammars = new Map()));
  let grammar = grammars.get(gbnf);
  if (!grammar) {
    try {
      grammar = await llama.createGrammar({ grammar: gbnf });
    } catch (error) {
      throw new GrammarRejectedError(gbnf, error);
    }
    if (grammars.size >= MAX_CACHED) grammars.delete(grammars.keys().next().value!);
    grammars.set(gbnf, grammar);
  }
  return grammar;
}
