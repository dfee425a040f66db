import type { Llama, LlamaGrammar } from "node-llama-cpp";
import { BoundedCache } from "../../../schemas/bounded-cache.js";
import { NarrowgaugeError } from "../../../schemas/narrowgauge-error.js";

/** llama.cpp refused a grammar we compiled. Never silently replaced by unconstrained sampling: grammars fail closed. */
export class GrammarRejectedError extends NarrowgaugeError {
  readonly code = "grammar-rejected";
  constructor(
    readonly grammar: string,
    cause: unknown,
    /** The tool (and parameter) whose grammar it is, when it was checked as a run was configured. */
    readonly where?: { tool: string; parameter: string | null },
  ) {
    const place = where ? `${where.parameter === null ? where.tool : `${where.tool}.${where.parameter}`}: ` : "";
    super(`${place}llama.cpp rejected the grammar: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }

  /** The same refusal, placed in a tool's parameters. */
  inTool(tool: string, parameter: string | null): GrammarRejectedError {
    return new GrammarRejectedError(this.grammar, this.cause, { tool, parameter });
  }
}

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
