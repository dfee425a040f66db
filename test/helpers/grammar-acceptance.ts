import type { LlamaGrammar } from "node-llama-cpp";
import { testLlama } from "./llama.js";

/**
 * Whether llama.cpp's own grammar engine accepts `text` as a complete match,
 * with no model involved. Workaround: node-llama-cpp 3.21.1 exposes this only
 * as the internal `LlamaGrammar._testText` (AddonGrammar.isTextCompatible,
 * which feeds each code point through llama_grammar_accept and checks for a
 * completed stack). Using llama.cpp itself as the oracle is stronger than a
 * GBNF matcher of our own.
 */
export async function grammarAccepts(gbnf: string, text: string): Promise<boolean> {
  const llama = await testLlama();
  const grammar = (await llama.createGrammar({ grammar: gbnf })) as LlamaGrammar & { _testText(text: string): boolean };
  return grammar._testText(text);
}
