import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { assertGrammarAgreesWithAjv } from "../helpers/grammar-ajv-property.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";
import { schemaCase } from "../helpers/schema-arbitrary.js";

describe("grammar vs ajv agreement (property)", () => {
  it("accepts the compact JSON of every ajv-valid instance of a random supported schema (300 here; 10,000 in npm run soak)", async () => {
    await assertGrammarAgreesWithAjv(300);
  });

  it("rejects the instance with whitespace added, which is valid JSON but not compact", async () => {
    await fc.assert(
      fc.asyncProperty(
        schemaCase
          .filter(({ schema }) => schema.type === "object" || schema.type === "array")
          .chain((generated) => fc.tuple(fc.constant(generated.schema), generated.instance)),
        async ([schema, instance]) => {
          const pretty = JSON.stringify(instance, null, 1);
          fc.pre(pretty !== JSON.stringify(instance));
          expect(await grammarAccepts(compileGbnf(schema), pretty)).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
});
