import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { weatherTools } from "../../demos/weather-tools.js";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { grammarStart } from "../../schemas/gbnf-match/gbnf-matcher.js";
import { shortestText } from "../../schemas/gbnf-match/shortest-text.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { buildStepSchema } from "../../schemas/step-schema.js";
import { schemaCase } from "../helpers/schema-arbitrary.js";

const completes = (gbnf: string, text: string) => grammarStart(gbnf).advance(text)?.complete === true;

describe("the shortest text a grammar accepts (what a step needs at least)", () => {
  it("is the shortest of the alternatives, repetitions at their least, classes as plain characters", () => {
    expect(shortestText('root ::= "abc" | "d" "e"')).toBe("de");
    expect(shortestText('root ::= "<" [a-z]{2,5} ">"')).toBe("<aa>");
    expect(shortestText('root ::= item ("," item)*\nitem ::= [0-9]+')).toBe("0");
    expect(shortestText('root ::= "\\"" [^"\\\\]{1,3} "\\""')).toBe('"a"');
    expect(shortestText("root ::= loop\nloop ::= \"x\" loop")).toBeNull();
  });

  it("is accepted by the grammar, and no instance of the schema is shorter (property over random schemas)", () => {
    fc.assert(
      fc.property(
        schemaCase.chain((generated) => generated.instance.map((instance) => [generated.schema, JSON.stringify(instance)] as const)),
        ([schema, instance]) => {
          const gbnf = compileGbnf(schema);
          const text = shortestText(gbnf)!;
          expect(completes(gbnf, text), `${gbnf}\n${text}`).toBe(true);
          expect([...text].length).toBeLessThanOrEqual([...instance].length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("for a step: an empty thought and the shortest FinalAnswer, grounded numbers or not", () => {
    const gbnf = cachedGbnf(buildStepSchema({ tools: weatherTools, final: true, thought: true, answerNumbers: [18, 24.5], thoughtMaxLength: 200, answerMaxLength: 400 }));
    expect(shortestText(gbnf)).toBe('{"thought":"","call":{"tool":"FinalAnswer","answer":"a"}}');
  });
});
