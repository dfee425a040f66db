import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { grammarStart } from "../../schemas/gbnf-match/gbnf-matcher.js";
import { GbnfSyntaxError } from "../../schemas/gbnf-match/parse-gbnf.js";
import { buildStepSchema, stepParts } from "../../schemas/step-schema.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";
import { schemaCase } from "../helpers/schema-arbitrary.js";
import { weatherTools } from "../../demos/weather-tools.js";

const completes = (gbnf: string, text: string) => grammarStart(gbnf).advance(text)?.complete === true;

/** Walks `text` taking every forced span whole; throws where a span is not what the text says next. */
function walkWithForcedSpans(gbnf: string, text: string): string[] {
  let position = grammarStart(gbnf);
  const spans: string[] = [];
  let at = 0;
  while (at < text.length) {
    const forced = position.forced();
    const next = forced || String.fromCodePoint(text.codePointAt(at)!);
    if (text.slice(at, at + next.length) !== next) throw new Error(`forced ${JSON.stringify(forced)} where the text has ${JSON.stringify(text.slice(at))}`);
    if (forced) spans.push(forced);
    position = position.advance(next)!;
    at += next.length;
  }
  expect(position.complete).toBe(true);
  return spans;
}

/** A text near `text`: cut short, a character dropped, inserted or replaced. */
const mutation = (text: string) =>
  fc.tuple(fc.nat({ max: Math.max(0, text.length) }), fc.constantFrom("cut", "drop", "insert", "replace"), fc.constantFrom('"', "}", "]", ",", "a", "0", " ", "\\", "é", ":")).map(([at, kind, char]) =>
    kind === "cut" ? text.slice(0, at) : kind === "drop" ? text.slice(0, at) + text.slice(at + 1) : kind === "insert" ? text.slice(0, at) + char + text.slice(at) : text.slice(0, at) + char + text.slice(at + 1),
  );

describe("the GBNF matcher agrees with llama.cpp's grammar engine", () => {
  it("on instances of random schemas and texts near them: complete exactly where llama.cpp accepts (property, 300 cases)", async () => {
    await fc.assert(
      fc.asyncProperty(
        schemaCase.chain((generated) => generated.instance.chain((instance) => fc.tuple(fc.constant(generated.schema), fc.constant(JSON.stringify(instance)), mutation(JSON.stringify(instance))))),
        async ([schema, valid, near]) => {
          const gbnf = compileGbnf(schema);
          for (const text of [valid, near]) expect(completes(gbnf, text), `${gbnf}\n${text}`).toBe(await grammarAccepts(gbnf, text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("forced spans are always what a valid text holds next (property over random schemas)", () => {
    fc.assert(
      fc.property(
        schemaCase.chain((generated) => generated.instance.map((instance) => [generated.schema, JSON.stringify(instance)] as const)),
        ([schema, text]) => {
          walkWithForcedSpans(compileGbnf(schema), text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("finds the step's skeleton between its free fields: the rest of a tool name once unique, the rest of an enum value, the closing brackets", () => {
    const options = { tools: weatherTools, final: true, thought: true, thoughtMaxLength: 40, answerMaxLength: 400, answerNumbers: null };
    const gbnf = cachedGbnf(buildStepSchema(options));
    expect(stepParts(options)).toBeTruthy();
    const spans = walkWithForcedSpans(gbnf, '{"thought":"check Paris","call":{"tool":"CityWeather","args":{"city":"Paris"}}}');
    expect(spans).toEqual(['{"thought":"', ',"call":{"tool":"', 'tyWeather","args":{"city":"', 'aris"}}}']);
  });

  it("forces nothing where the grammar may end or choose, and refuses what it cannot read", () => {
    expect(grammarStart('root ::= "a" "b"?').advance("a")!.forced()).toBe("");
    expect(grammarStart('root ::= "ab" | "ac"').forced()).toBe("a");
    expect(grammarStart('root ::= [a-z]{2,3} "!"').advance("ab")!.forced()).toBe("");
    expect(grammarStart('root ::= [a-z]{2,3} "!"').advance("abc")!.forced()).toBe("!");
    expect(grammarStart('root ::= "x"\n  | "y"').advance("y")!.complete).toBe(true);
    expect(() => grammarStart('root ::= <[42]> "a"')).toThrow(GbnfSyntaxError);
    expect(() => grammarStart("root ::= missing")).toThrow(GbnfSyntaxError);
  });
});
