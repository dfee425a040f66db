import fc from "fast-check";
import { parseGbnf, type CharElement } from "../../../schemas/gbnf-match/parse-gbnf.js";

/**
 * A text the grammar accepts, drawn by following it from its root: at each
 * rule one of its alternatives, at each character class one of its
 * characters, every choice made by `pick(count)` (an index below `count`).
 * Read with the repo's own GBNF parser (schemas/gbnf-match/), which writes
 * repetitions as llama.cpp does, so each optional copy is a choice too.
 * A negated class is drawn from printable ASCII and the first code points
 * past it. For grammars without unbounded recursion (every one the compiler
 * writes): `maxDepth` rule expansions deep at most, else it throws.
 */
export function sampleGrammar(gbnf: string, pick: (count: number) => number, maxDepth = 20_000): string {
  const grammar = parseGbnf(gbnf);
  const out: string[] = [];
  const character = (element: CharElement): string => {
    if (element.negated) {
      const allowed: number[] = [];
      for (let code = 0x20; code < 0x300; code++) {
        let inside = false;
        for (let at = 0; at < element.ranges.length; at += 2) if (code >= element.ranges[at]! && code <= element.ranges[at + 1]!) inside = true;
        if (!inside) allowed.push(code);
      }
      return String.fromCodePoint(allowed[pick(allowed.length)]!);
    }
    const range = pick(element.ranges.length / 2) * 2;
    const from = element.ranges[range]!;
    return String.fromCodePoint(from + pick(element.ranges[range + 1]! - from + 1));
  };
  const expand = (rule: number, depth: number) => {
    if (depth > maxDepth) throw new Error(`sampleGrammar: deeper than ${maxDepth} rules`);
    const starts = grammar.rules[rule]!;
    for (let at = starts[pick(starts.length)]!; ; at++) {
      const element = grammar.elements[at]!;
      if (element.kind === "end") return;
      if (element.kind === "char") out.push(character(element));
      else expand(element.rule, depth + 1);
    }
  };
  expand(grammar.root, 0);
  return out.join("");
}

/** A text the grammar accepts (see sampleGrammar), its choices drawn from a property's `fc.gen()`, so a failure shrinks. */
export function drawGrammarText(gbnf: string, draw: fc.GeneratorValue): string {
  return sampleGrammar(gbnf, (count) => (count <= 1 ? 0 : draw(fc.integer, { min: 0, max: count - 1 })));
}
