import fc from "fast-check";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { grammarAccepts } from "./grammar-acceptance.js";
import { schemaCase } from "./schema-arbitrary.js";

/**
 * The compiler's central promise, as a property: for a random supported
 * schema, every instance ajv accepts is accepted, as compact JSON, by the
 * compiled grammar (llama.cpp's own engine judges). Throws fast-check's
 * counterexample report on failure.
 */
export async function assertGrammarAgreesWithAjv(numRuns: number, seed?: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      schemaCase.chain((generated) => fc.tuple(fc.constant(generated.schema), generated.instance)),
      async ([schema, instance]) => {
        if (validateAgainst(schema, instance).length > 0) throw new Error(`the arbitrary produced an instance ajv rejects: ${JSON.stringify(instance)}`);
        const text = JSON.stringify(instance);
        if (!(await grammarAccepts(compileGbnf(schema), text))) throw new Error(`the grammar rejects an ajv-valid instance\n${JSON.stringify(schema)}\n${text}`);
      },
    ),
    { numRuns, ...(seed === undefined ? {} : { seed }) },
  );
}
