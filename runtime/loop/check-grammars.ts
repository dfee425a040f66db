import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { topLevelProperties } from "../../schemas/schema-shapes.js";
import { stepParts } from "../../schemas/step-schema.js";
import { GrammarRejectedError } from "../engine/model-errors.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import type { RunConfig } from "./run-config.js";
import { roomStringLength } from "../../schemas/room-string-length.js";

/**
 * Before the first model call: the widest step grammars a run can sample under
 * (every tool, FinalAnswer with free or grounded-number text or the answer's schema, the thought, written in the run's codec) are parsed by the model's own
 * llama.cpp (ModelPort.checkGrammar), so a grammar llama.cpp would refuse is
 * a configuration error now, not a `grammar-rejected` ending later. When it
 * is refused, each tool's and then each parameter's grammar alone find what
 * to name. Parsed grammars are cached by the port.
 */
export async function checkGrammars(
  config: Pick<RunConfig, "model" | "profile" | "codec" | "thoughtMaxLength" | "answerMaxLength" | "defaultMaxLength" | "defaultMaxItems" | "freeValueDepth" | "answerSchema" | "maxTokensPerStep">,
  registry: ToolRegistry,
): Promise<void> {
  // Strings as long as a step's room can make them: the most a step has.
  const bounds = { defaultMaxLength: config.defaultMaxLength ?? roomStringLength(config.maxTokensPerStep), defaultMaxItems: config.defaultMaxItems, freeValueDepth: config.freeValueDepth };
  const port = config.model;
  if (!port.checkGrammar) return;
  const check = (gbnf: string) => port.checkGrammar!(gbnf);
  let refusal: unknown;
  try {
    // The answer's text free, and with its digits held to grounded numbers (G4's answer grammar, as provenance writes it).
    for (const answerNumbers of [null, []]) {
      const options = { tools: registry.tools, final: true, thought: config.profile.thought, thoughtMaxLength: config.thoughtMaxLength, answerMaxLength: config.answerMaxLength, answerNumbers, answerSchema: config.answerSchema };
      await check(config.codec.grammar(stepParts(options), bounds));
    }
    return;
  } catch (error) {
    if (!(error instanceof GrammarRejectedError)) throw error;
    refusal = error;
  }
  for (const tool of registry.tools) {
    const name = registry.naming.original(tool.name);
    try {
      await check(cachedGbnf(tool.params, bounds));
    } catch (error) {
      if (!(error instanceof GrammarRejectedError)) throw error;
      for (const property of topLevelProperties(tool.params)) {
        await check(compileGbnf({ type: "object", properties: { [property.name]: property.schema }, required: [property.name] }, bounds)).catch((inner: unknown) => {
          throw inner instanceof GrammarRejectedError ? inner.inTool(name, property.name) : inner;
        });
      }
      throw error.inTool(name, null);
    }
  }
  throw refusal;
}
