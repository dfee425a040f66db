import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/**
 * Reads GBNF text into the flat form llama.cpp's grammar engine uses: each
 * rule a list of alternatives, each alternative a run of elements (a
 * character class or a rule reference) in one array, ended by END. Groups
 * and repetitions become generated rules, as llama.cpp rewrites them, so a
 * matcher over this form accepts exactly the text llama.cpp's does.
 *
 * What narrowgauge's compiler and codecs emit is covered: literals with
 * llama.cpp's escapes, character classes (ranges, negation), `.`, groups,
 * `? * + {m} {m,} {m,n}`, comments, alternatives continued on a new line.
 * Token references (`<[id]>`, `<|tok|>`) are not: such a grammar is refused
 * with a GbnfSyntaxError and the caller does without a matcher.
 */

/** A character class as code point ranges [from, to, from, to, …]. */
export interface CharElement {
  readonly kind: "char";
  readonly ranges: readonly number[];
  readonly negated: boolean;
}
export interface RuleElement {
  readonly kind: "rule";
  readonly rule: number;
}
export type Element = CharElement | RuleElement | { readonly kind: "end" };

export interface ParsedGbnf {
  /** Every alternative's elements, each run ended by an `end` element. */
  readonly elements: readonly Element[];
  /** For each rule, the index in `elements` where each of its alternatives starts. */
  readonly rules: ReadonlyArray<readonly number[]>;
  readonly root: number;
}

/** GBNF text the matcher cannot parse, or (offset -1) cannot follow: a rule that nests without end, a character class that admits nothing. */
export class GbnfSyntaxError extends NarrowgaugeError {
  readonly code = "gbnf-syntax";
  readonly endsRun = true;
  constructor(message: string, readonly offset: number) {
    super(offset < 0 ? message : `${message} at offset ${offset}`);
  }
}

type Symbol = Array<CharElement | RuleElement>;
type Alternative = Symbol;

const END: Element = { kind: "end" };

/**
 * `minimal`: each repetition read as its required copies alone (`x{0,256}`
 * as nothing, `x+` as one x). The result accepts only the grammar's least
 * texts, which is all shortestText needs, and stays linear in the text's
 * size: the faithful form writes a rule per optional copy, and a schema of
 * 4,000 strings of 256 characters became a million rules.
 */
export function parseGbnf(text: string, rootName = "root", options: { minimal?: boolean } = {}): ParsedGbnf {
  const names = new Map<string, number>();
  const bodies: Array<Alternative[] | undefined> = [];
  const ruleId = (name: string) => {
    let id = names.get(name);
    if (id === undefined) {
      id = bodies.length;
      names.set(name, id);
      bodies.push(undefined);
    }
    return id;
  };
  const generated = (alternatives: Alternative[]) => {
    bodies.push(alternatives);
    return bodies.length - 1;
  };
  let at = 0;
  const fail = (message: string): never => {
    throw new GbnfSyntaxError(message, at);
  };

  /** Skips spaces and comments; newlines too when `newlines`. */
  const skip = (newlines: boolean) => {
    while (at < text.length) {
      const c = text[at]!;
      if (c === "#") while (at < text.length && text[at] !== "\n") at++;
      else if (c === " " || c === "\t" || c === "\r" || (newlines && c === "\n")) at++;
      else break;
    }
  };
  // Sticky patterns read at `at` without copying the rest of the text (a copy per name made a long rule quadratic).
  const NAME = /[A-Za-z0-9_-]+/y;
  const REPETITION = /\s*(\d+)\s*(,\s*(\d*)\s*)?\}/y;
  const name = () => {
    NAME.lastIndex = at;
    const match = NAME.exec(text);
    if (!match) fail("expected a rule name");
    at += match![0].length;
    return match![0];
  };
  const hex = (digits: number) => {
    const value = text.slice(at, at + digits);
    if (!/^[0-9a-fA-F]+$/.test(value) || value.length !== digits) fail("bad escape");
    at += digits;
    return parseInt(value, 16);
  };
  /** One code point of a literal or class, escapes decoded. */
  const codePoint = (): number => {
    const c = text.codePointAt(at)!;
    if (c !== 0x5c) {
      at += c > 0xffff ? 2 : 1;
      return c;
    }
    const e = text[at + 1];
    at += 2;
    switch (e) {
      case "x": return hex(2);
      case "u": return hex(4);
      case "U": return hex(8);
      case "t": return 9;
      case "r": return 13;
      case "n": return 10;
      case "\\": case '"': case "[": case "]": return e.codePointAt(0)!;
      default: return fail(`unknown escape \\${e}`);
    }
  };

  const repeat = (symbol: Symbol, min: number, max: number | null): Symbol => {
    const copies: Symbol = [];
    for (let i = 0; i < min; i++) for (const element of symbol) copies.push(element);
    if (options.minimal) return copies;
    if (max === null) {
      // R ::= symbol R | ε
      const id = bodies.length;
      bodies.push(undefined);
      bodies[id] = [[...symbol, { kind: "rule", rule: id }], []];
      return [...copies, { kind: "rule", rule: id }];
    }
    // (symbol (symbol (…)?)?)? nested max - min deep, as llama.cpp writes it
    let tail: RuleElement | null = null;
    for (let i = 0; i < max - min; i++) {
      const rest: Symbol = tail ? [...symbol, tail] : [...symbol];
      tail = { kind: "rule", rule: generated([rest, []]) };
    }
    return tail ? [...copies, tail] : copies;
  };

  const alternatives = (nested: boolean): Alternative[] => {
    const result: Alternative[] = [sequence(nested)];
    for (;;) {
      const before = at;
      skip(true);
      if (text[at] === "|") {
        at++;
        skip(true);
        result.push(sequence(nested));
        continue;
      }
      // At the top level a newline not followed by `|` ends the rule.
      if (!nested) at = before;
      return result;
    }
  };

  const sequence = (nested: boolean): Alternative => {
    const out: Alternative = [];
    let last: Symbol | null = null;
    const push = (symbol: Symbol) => {
      if (last) for (const element of last) out.push(element);
      last = symbol;
    };
    for (;;) {
      skip(nested);
      const c = text[at];
      if (c === undefined || c === "|" || c === ")" || c === "\n") break;
      if (c === '"') {
        at++;
        const chars: Symbol = [];
        while (text[at] !== '"') {
          if (at >= text.length) fail("unterminated literal");
          const code = codePoint();
          chars.push({ kind: "char", ranges: [code, code], negated: false });
        }
        at++;
        push(chars);
      } else if (c === "[") {
        at++;
        const negated = text[at] === "^";
        if (negated) at++;
        const ranges: number[] = [];
        while (text[at] !== "]") {
          if (at >= text.length) fail("unterminated character class");
          const from = codePoint();
          let to = from;
          if (text[at] === "-" && text[at + 1] !== "]") {
            at++;
            to = codePoint();
          }
          ranges.push(from, to);
        }
        at++;
        push([{ kind: "char", ranges, negated }]);
      } else if (c === ".") {
        at++;
        push([{ kind: "char", ranges: [], negated: true }]);
      } else if (c === "(") {
        at++;
        const body = alternatives(true);
        skip(true);
        if (text[at] !== ")") fail("expected )");
        at++;
        push([{ kind: "rule", rule: generated(body) }]);
      } else if (c === "*" || c === "+" || c === "?" || c === "{") {
        if (!last) fail(`${c} with nothing before it`);
        at++;
        let min = 0;
        let max: number | null = null;
        if (c === "+") min = 1;
        else if (c === "?") max = 1;
        else if (c === "{") {
          REPETITION.lastIndex = at;
          const match = REPETITION.exec(text);
          if (!match) fail("bad repetition");
          at += match![0].length;
          min = Number(match![1]);
          max = match![2] === undefined ? min : match![3] ? Number(match![3]) : null;
        }
        last = repeat(last!, min, max);
      } else if (c === "<") {
        fail("token references are not supported");
      } else if (/[A-Za-z0-9_-]/.test(c)) {
        push([{ kind: "rule", rule: ruleId(name()) }]);
      } else fail(`unexpected ${JSON.stringify(c)}`);
    }
    if (last) for (const element of last as Symbol) out.push(element);
    return out;
  };

  for (;;) {
    skip(true);
    if (at >= text.length) break;
    const id = ruleId(name());
    skip(false);
    if (text.slice(at, at + 3) !== "::=") fail("expected ::=");
    at += 3;
    bodies[id] = alternatives(false);
  }

  const root = names.get(rootName);
  if (root === undefined) throw new GbnfSyntaxError(`no rule named ${rootName}`, 0);
  for (const [ruleName, id] of names) if (!bodies[id]) throw new GbnfSyntaxError(`rule ${ruleName} is used but not defined`, 0);

  const elements: Element[] = [];
  const rules = bodies.map((body) =>
    body!.map((alternative) => {
      const start = elements.length;
      for (const element of alternative) elements.push(element);
      elements.push(END);
      return start;
    }),
  );
  return { elements, rules, root };
}
