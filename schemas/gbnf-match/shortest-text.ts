import { GbnfSyntaxError, parseGbnf, type CharElement, type ParsedGbnf } from "./parse-gbnf.js";

/** Characters a class stands for when any one will do: plain ones first, so the text tokenizes as ordinary text does. */
const PLAIN = ["a", "0", " ", "x", "e"].map((char) => char.codePointAt(0)!);

const inRanges = (ranges: readonly number[], code: number) => {
  for (let i = 0; i < ranges.length; i += 2) if (code >= ranges[i]! && code <= ranges[i + 1]!) return true;
  return false;
};

/** One character the class accepts: a plain one where it can, else its first printable one. */
function someChar(element: CharElement): string {
  const accepts = (code: number) => inRanges(element.ranges, code) !== element.negated;
  const plain = PLAIN.find(accepts);
  if (plain !== undefined) return String.fromCodePoint(plain);
  if (element.negated) {
    for (let code = 0x21; code <= 0x10ffff; code++) if (accepts(code)) return String.fromCodePoint(code);
    throw new GbnfSyntaxError("a character class that accepts no character", -1);
  }
  for (let i = 0; i < element.ranges.length; i += 2) if (element.ranges[i + 1]! >= 0x20) return String.fromCodePoint(Math.max(element.ranges[i]!, 0x20));
  const code = element.ranges[0];
  if (code === undefined) throw new GbnfSyntaxError("a character class that accepts no character", -1);
  return String.fromCodePoint(code);
}

/**
 * For every rule, the length of its shortest text in characters and the
 * alternative that gives it: a fixed point over the rules (shortest paths,
 * each character costing one). A rule's value only falls, and a rule's
 * chosen alternative refers only to rules settled before it, so following
 * the choices always ends.
 */
function shortestLengths(grammar: ParsedGbnf): { length: number[]; best: number[] } {
  const length = grammar.rules.map(() => Infinity);
  const best = grammar.rules.map(() => -1);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [rule, starts] of grammar.rules.entries()) {
      for (const start of starts) {
        let sum = 0;
        for (let at = start; grammar.elements[at]!.kind !== "end" && sum < length[rule]!; at++) {
          const element = grammar.elements[at]!;
          sum += element.kind === "char" ? 1 : element.kind === "rule" ? length[element.rule]! : 0;
        }
        if (sum < length[rule]!) {
          length[rule] = sum;
          best[rule] = start;
          changed = true;
        }
      }
    }
  }
  return { length, best };
}

/**
 * The shortest text a GBNF grammar accepts from its root (one of them, built
 * from plain characters where a class allows any), or null when the grammar
 * accepts no finite text. What the step budget measures a turn by: a step
 * cannot be shorter than this.
 */
export function shortestText(gbnf: string, rootName = "root"): string | null {
  const grammar = parseGbnf(gbnf, rootName, { minimal: true });
  const { length, best } = shortestLengths(grammar);
  if (!Number.isFinite(length[grammar.root]!)) return null;
  const out: string[] = [];
  const expand = (rule: number) => {
    for (let at = best[rule]!; grammar.elements[at]!.kind !== "end"; at++) {
      const element = grammar.elements[at]!;
      if (element.kind === "char") out.push(someChar(element));
      else if (element.kind === "rule") expand(element.rule);
    }
  };
  expand(grammar.root);
  return out.join("");
}
