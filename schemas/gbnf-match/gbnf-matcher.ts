import { GbnfSyntaxError, parseGbnf, type CharElement, type ParsedGbnf } from "./parse-gbnf.js";
import { BoundedCache } from "../../base/bounded-cache.js";

/**
 * A character-level matcher over a GBNF grammar, the way llama.cpp's
 * grammar engine walks one: a set of stacks of positions, each top a
 * character class. It answers what the sampler cannot tell the program:
 * whether text so far is still in the grammar, whether the grammar may end
 * here, and which text the grammar forces next (every way on has one
 * character, the same one) — the span jump-forward writes without sampling.
 */
export interface GrammarPosition {
  /** The position after `text`, or null when the grammar cannot continue with it. */
  advance(text: string): GrammarPosition | null;
  /** The text the grammar forces from here, up to `limit` code points; "" at a choice or where the grammar may end. */
  forced(limit?: number): string;
  /** Whether the grammar may end here. */
  readonly complete: boolean;
  /** Whether the grammar must end here: nothing may follow. */
  readonly final: boolean;
  /** The position after one code point (any value, as llama.cpp's grammar takes what its UTF-8 decoder reads), or null. */
  advanceCode(code: number): GrammarPosition | null;
  /** Whether the next character may be some code point in [from, to] (a UTF-8 character begun but not finished). */
  allowsSomeIn(from: number, to: number): boolean;
  /** Whether at most `limit` code points may come next (counted by class; a negated class counts as many). */
  admitsAtMost(limit: number): boolean;
}

type Stack = readonly number[];

class Matcher {
  constructor(private readonly grammar: ParsedGbnf) {}

  start(): Stack[] {
    const out = new Map<string, Stack>();
    for (const alternative of this.grammar.rules[this.grammar.root]!) this.expand([alternative], out);
    return [...out.values()];
  }

  /** Pushes `stack` expanded until each top is a character class (or the stack is empty: the grammar may end). */
  private expand(stack: Stack, out: Map<string, Stack>, depth = 0): void {
    if (depth > 10_000) throw new GbnfSyntaxError("GBNF grammar nests too deeply (left recursion?)", -1);
    const top = stack.at(-1);
    if (top === undefined) {
      out.set("", stack);
      return;
    }
    const element = this.grammar.elements[top]!;
    if (element.kind === "char") {
      out.set(stack.join(","), stack);
      return;
    }
    if (element.kind === "end") {
      this.expand(stack.slice(0, -1), out, depth + 1);
      return;
    }
    // A rule reference: continue after it (unless it ends the alternative, a tail call), then into each alternative.
    const base = this.grammar.elements[top + 1]!.kind === "end" ? stack.slice(0, -1) : [...stack.slice(0, -1), top + 1];
    for (const start of this.grammar.rules[element.rule]!) {
      if (this.grammar.elements[start]!.kind === "end") this.expand(base, out, depth + 1);
      else this.expand([...base, start], out, depth + 1);
    }
  }

  accept(stacks: readonly Stack[], code: number): Stack[] {
    const out = new Map<string, Stack>();
    for (const stack of stacks) {
      const top = stack.at(-1);
      if (top === undefined) continue;
      const element = this.grammar.elements[top] as CharElement;
      if (!matches(element, code)) continue;
      const rest = this.grammar.elements[top + 1]!.kind === "end" ? stack.slice(0, -1) : [...stack.slice(0, -1), top + 1];
      this.expand(rest, out);
    }
    return [...out.values()];
  }

  element(index: number): CharElement {
    return this.grammar.elements[index] as CharElement;
  }

  /** The one code point every stack's top allows, or null. */
  only(stacks: readonly Stack[]): number | null {
    let code: number | null = null;
    for (const stack of stacks) {
      const top = stack.at(-1);
      if (top === undefined) return null;
      const element = this.grammar.elements[top] as CharElement;
      if (element.negated || element.ranges.length !== 2 || element.ranges[0] !== element.ranges[1]) return null;
      if (code !== null && code !== element.ranges[0]) return null;
      code = element.ranges[0]!;
    }
    return code;
  }
}

/** Whether a class admits some code point in [from, to]. */
function overlaps(element: CharElement, from: number, to: number): boolean {
  if (!element.negated) {
    for (let i = 0; i < element.ranges.length; i += 2) if (element.ranges[i]! <= to && element.ranges[i + 1]! >= from) return true;
    return false;
  }
  // Negated: some point of [from, to] lies outside every range.
  const ranges: Array<[number, number]> = [];
  for (let i = 0; i < element.ranges.length; i += 2) ranges.push([element.ranges[i]!, element.ranges[i + 1]!]);
  ranges.sort((a, b) => a[0] - b[0]);
  let next = from;
  for (const [low, high] of ranges) {
    if (low > next) break;
    if (high >= next) next = high + 1;
    if (next > to) return false;
  }
  return next <= to;
}

function matches(element: CharElement, code: number): boolean {
  let inside = false;
  for (let i = 0; i < element.ranges.length; i += 2) {
    if (code >= element.ranges[i]! && code <= element.ranges[i + 1]!) {
      inside = true;
      break;
    }
  }
  return inside !== element.negated;
}

class Position implements GrammarPosition {
  constructor(private readonly matcher: Matcher, private readonly stacks: readonly Stack[]) {}

  get complete(): boolean {
    return this.stacks.some((stack) => stack.length === 0);
  }

  get final(): boolean {
    return this.stacks.every((stack) => stack.length === 0);
  }

  allowsSomeIn(from: number, to: number): boolean {
    return this.stacks.some((stack) => {
      const top = stack.at(-1);
      return top !== undefined && overlaps(this.matcher.element(top), from, to);
    });
  }

  admitsAtMost(limit: number): boolean {
    const seen = new Set<number>();
    let count = 0;
    for (const stack of this.stacks) {
      const top = stack.at(-1);
      if (top === undefined || seen.has(top)) continue;
      seen.add(top);
      const element = this.matcher.element(top);
      if (element.negated) return false;
      for (let i = 0; i < element.ranges.length; i += 2) count += element.ranges[i + 1]! - element.ranges[i]! + 1;
      if (count > limit) return false;
    }
    return true;
  }

  advanceCode(code: number): GrammarPosition | null {
    const stacks = this.matcher.accept(this.stacks, code);
    return stacks.length === 0 ? null : new Position(this.matcher, stacks);
  }

  advance(text: string): GrammarPosition | null {
    let stacks = this.stacks;
    for (const char of text) {
      stacks = this.matcher.accept(stacks, char.codePointAt(0)!);
      if (stacks.length === 0) return null;
    }
    return new Position(this.matcher, stacks);
  }

  forced(limit = 512): string {
    let stacks = this.stacks;
    let text = "";
    for (let n = 0; n < limit; n++) {
      const code = this.matcher.only(stacks);
      if (code === null) break;
      text += String.fromCodePoint(code);
      stacks = this.matcher.accept(stacks, code);
    }
    return text;
  }
}

const matchers = new BoundedCache<string, Matcher>(64);

/** The grammar's start position; parsed grammars are cached by their text. Throws GbnfSyntaxError for what it cannot read. */
export function grammarStart(gbnf: string): GrammarPosition {
  let matcher = matchers.get(gbnf);
  if (!matcher) {
    matcher = new Matcher(parseGbnf(gbnf));
    matchers.set(gbnf, matcher);
  }
  return new Position(matcher, matcher.start());
}

/** The grammar's start position, or null for a grammar the matcher cannot read (a GbnfSyntaxError; callers then do without it). */
export function readableGrammarStart(gbnf: string): GrammarPosition | null {
  try {
    return grammarStart(gbnf);
  } catch (error) {
    if (error instanceof GbnfSyntaxError) return null;
    throw error;
  }
}
