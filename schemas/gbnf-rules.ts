/**
 * The building blocks of GBNF text: shared terminal rules, a rule set that
 * names each distinct body once, and helpers that join expressions the way
 * the JSON they emit reads.
 */

const escape = (code: number) => (code > 0xffff ? `\\U${code.toString(16).toUpperCase().padStart(8, "0")}` : `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`);

/**
 * Code point ranges as a GBNF character class (`negated`: all but them),
 * every bound a fixed-width escape (\uXXXX, or \UXXXXXXXX above the BMP):
 * llama.cpp reads them, and so does xgrammar (vLLM, SGLang, WebLLM), whose
 * \x takes any number of hex digits, so `\x1f0-9` there is the reversed
 * range U+01F0 to 9.
 */
function charClass(ranges: ReadonlyArray<readonly [number, number]>, negated = false): string {
  const merged: Array<[number, number]> = [];
  for (const [from, to] of ranges) {
    const last = merged.at(-1);
    if (last && from === last[1] + 1) last[1] = to;
    else merged.push([from, to]);
  }
  return `[${negated ? "^" : ""}${merged.map(([from, to]) => (from === to ? escape(from) : `${escape(from)}-${escape(to)}`)).join("")}]`;
}

/** Printable ASCII and the space, less `excluded`, as ranges. */
function printableRanges(excluded: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let code = 0x20; code <= 0x7e; code++) {
    if (excluded.includes(String.fromCharCode(code))) continue;
    const last = ranges.at(-1);
    if (last && last[1] === code - 1) last[1] = code;
    else ranges.push([code, code]);
  }
  return ranges;
}

/** Printable ASCII a JSON string may hold as is: all but the quote, the backslash (escaped instead) and `excluded`. */
const asciiRanges = (excluded: string) => printableRanges(`"\\${excluded}`);

/**
 * Every code point past ASCII up to U+10FFFF, less surrogates and U+FFFD
 * (see PRIMITIVE_RULES), as alternatives llama.cpp and xgrammar read alike.
 * Not one class of allowed ranges: xgrammar 0.1.27 (WebLLM's) reads a
 * class's non-ASCII bounds as their low byte, so that class let `"`, `\` and
 * control characters into JSON strings and refused é (issue 35, measured by
 * test/schemas/xgrammar-portability.test.ts). It reads a negated class that
 * excludes all of ASCII as every multi-byte character (it drops the
 * non-ASCII members, xgrammar issue 848, fixed upstream by PR 909, so it
 * admits U+FFFD and encoded surrogates too); llama.cpp reads the members as
 * written. 0x1FFFFF is the largest value llama.cpp's UTF-8 decoder
 * yields (a lead byte's low three bits and three continuations).
 * The literals are allowed characters already: llama.cpp refuses a character
 * begun in one token and finished in the next under a negated class as soon
 * as some excluded code point could finish it (llama_grammar_match_partial_char),
 * where a class of allowed ranges takes it if some allowed one could. One
 * allowed character for each sequence begun that could become either (ED:
 * U+D000–DFFF; EF: U+F000–FFFF; EF BF: U+FFC0–FFFF; F4: U+100000–13FFFF)
 * keeps those tokens writable as before (llama.cpp's check, transcribed from
 * node-llama-cpp 3.21.1's copy and run over every begun sequence, found no
 * other difference).
 */
const BEYOND_ASCII = [charClass([[0, 0x7f], [0xd800, 0xdfff], [0xfffd, 0xfffd], [0x110000, 0x1fffff]], true), ...[0xd000, 0xffc0, 0x100000].map((code) => `"${escape(code)}"`)].join(" | ");

/** A JSON string's unescaped character: printable ASCII, DEL and BEYOND_ASCII, less `excluded`. */
const unescaped = (excluded: string) => `${charClass([...asciiRanges(excluded), [0x7f, 0x7f]])} | ${BEYOND_ASCII}`;

/**
 * A character of free text outside JSON (a thought written as the
 * assistant's own text), as alternatives for a rule's body: printable, no
 * space or other whitespace, none of `excluded`, and the same code points
 * beyond ASCII as a JSON string.
 */
export function textCharClass(excluded: string): string {
  return rawCharClass(` ${excluded}`);
}

/**
 * A character of a string written without escapes (a template's own
 * argument syntax, value-notation.ts): printable ASCII and space, none of
 * `excluded` (what would end the string), and the same code points beyond
 * ASCII as a JSON string; `ascii` leaves those out.
 */
export function rawCharClass(excluded: string, ascii = false): string {
  const ranges = printableRanges(excluded);
  return ascii ? charClass(ranges) : `${charClass([...ranges, [0x7f, 0x7f]])} | ${BEYOND_ASCII}`;
}

const ESCAPES = '"\\\\" (["\\\\bfnrt] | "u00" [01] [0-9a-f])';

/** Shared terminal rules, emitted once at the end when referenced. */
const PRIMITIVE_RULES: Record<string, string> = {
  // Any code point but the quote, the backslash, C0 controls, and U+FFFD
  // (kept out so that a U+FFFD in decoded output can only mean invalid UTF-8).
  // Surrogates and values past U+10FFFF are excluded too: llama.cpp's grammar
  // decodes byte tokens by lead-byte shape alone, and a random model did write
  // F5 B1 B1 B1 (= 0x171C71) into a thought; BEYOND_ASCII names them all.
  // Overlong encodings decode to legal code points and cannot be excluded
  // here; parseGeneration catches them.
  // Escapes are exactly JSON.stringify's: \" \\ \b \f \n \r \t and \u00XX.
  "json-char": `${unescaped("")} | ${ESCAPES}`,
  "json-char-no-digit": `${unescaped("0123456789")} | ${ESCAPES}`,
  "json-char-after-number": `${unescaped("0123456789.")} | ${ESCAPES} | "." json-char-no-digit`,
  "json-char-ascii": `${charClass(asciiRanges(""))} | ${ESCAPES}`,
  // A JSON number is written the way JSON.stringify writes a double: integer
  // digits plain, or one digit, a fraction and an exponent. Plain integer
  // digits stop where a double stops holding every integer: 15 digits, or 16
  // below 9e15 (2^53 is 9007199254740992), so no integer written reads as
  // another (9223372036854776001 reads as 9223372036854776000, found by
  // MaskBench); a larger magnitude is written with an exponent. Positive
  // exponents stop at 307 so that no literal overflows to Infinity (found by
  // the soak: a random model wrote 1e999, which JSON.parse makes Infinity).
  // The cost: magnitudes from 1e308 to Number.MAX_VALUE cannot be written.
  "json-number-body": '"0" json-fraction? json-exponent? | "9" ([0-9]{1,14} json-fraction? | json-fraction? json-exponent?) | [1-8] ([0-9]{1,15} json-fraction? | json-fraction? json-exponent?)',
  "json-fraction": '"." [0-9]{1,24}',
  "json-exponent": '"e" ("-" [1-9] [0-9]{0,2} | "+" ([1-9] [0-9]? | [12] [0-9] [0-9] | "30" [0-7]))',
  "json-integer-digits": '"0" | "9" [0-9]{0,14} | [1-8] [0-9]{0,15}',
};

export class RuleSet {
  private readonly rules = new Map<string, string>();
  private readonly nameByBody = new Map<string, string>();
  readonly primitivesUsed = new Set<string>();

  add(nameHint: string, body: string): string {
    GBNF_WORK.characters += body.length;
    const existing = this.nameByBody.get(body);
    if (existing) return existing;
    const base = sanitizeRuleName(nameHint);
    let name = base;
    for (let suffix = 2; this.rules.has(name) || Object.hasOwn(PRIMITIVE_RULES, name); suffix++) name = `${base}-${suffix}`;
    this.rules.set(name, body);
    this.nameByBody.set(body, name);
    return name;
  }

  primitive(name: keyof typeof PRIMITIVE_RULES & string): string {
    this.primitivesUsed.add(name);
    return name;
  }

  render(rootExpression: string): string {
    const lines = [`root ::= ${rootExpression}`];
    for (const [name, body] of this.rules) lines.push(`${name} ::= ${body}`);
    for (const name of Object.keys(PRIMITIVE_RULES)) {
      if (this.primitivesUsed.has(name)) lines.push(`${name} ::= ${PRIMITIVE_RULES[name]}`);
    }
    return lines.join("\n") + "\n";
  }
}

function sanitizeRuleName(hint: string): string {
  const name = hint.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return name === "" || name === "root" ? "value" : name;
}

export function repeat(expression: string, min: number, max: number): string {
  if (max === 0) return "";
  if (min === max) return min === 1 ? expression : `${expression}{${min}}`;
  if (min === 0 && max === 1) return `${expression}?`;
  return `${expression}{${min},${max}}`;
}

const LITERAL = /^"(?:[^"\\]|\\.)*"$/;

/** Joins GBNF expressions, merging adjacent string literals so the grammar reads like the JSON it emits. */
export function sequence(...parts: string[]): string {
  return sequenceOf(parts);
}

/**
 * sequence() over an array of any length: linear in the parts' total length
 * (each part is split once, a run of adjacent literals joined once), so a
 * schema's size cannot make a grammar's compilation quadratic.
 */
export function sequenceOf(parts: readonly string[]): string {
  const merged: string[] = [];
  let literals: string[] = [];
  const flush = () => {
    if (literals.length === 0) return;
    merged.push(literals.length === 1 ? literals[0]! : `"${literals.map((literal) => literal.slice(1, -1)).join("")}"`);
    literals = [];
  };
  for (const part of parts) {
    for (const item of topLevelItems(part)) {
      if (LITERAL.test(item)) literals.push(item);
      else {
        flush();
        merged.push(item);
      }
    }
  }
  flush();
  return merged.join(" ");
}

/**
 * Characters topLevelItems has read and rule bodies RuleSet.add has keyed, in this process: the grammar builder's
 * work, counted, so a test can hold compilation linear in a schema's size
 * without timing it (test/schemas/schema-size.test.ts). Nothing reads it to
 * decide anything.
 */
export const GBNF_WORK = { characters: 0 };

/** Splits a GBNF sequence into its top-level items (spaces inside literals, classes and groups do not split). */
function topLevelItems(expression: string): string[] {
  GBNF_WORK.characters += expression.length;
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < expression.length; index++) {
    const character = expression[index];
    if (character === '"' || character === "[") {
      const close = character === '"' ? '"' : "]";
      for (index++; index < expression.length && expression[index] !== close; index++) {
        if (expression[index] === "\\") index++;
      }
    } else if (character === "(") depth++;
    else if (character === ")") depth--;
    else if (character === " " && depth === 0) {
      if (index > start) items.push(expression.slice(start, index));
      start = index + 1;
    }
  }
  if (expression.length > start) items.push(expression.slice(start));
  return items;
}
