import { RE2JS } from "re2js";
import { BoundedCache } from "../../base/bounded-cache.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";

/**
 * A schema's `pattern` (and `patternProperties`' keys) as a linear-time
 * matcher: RE2 semantics through re2js (pure JavaScript, so the page runs
 * the same engine), never the backtracking RegExp. A schema is input a
 * client controls: `^(a+)+$` against 28 characters ran 94 s on V8's engine
 * and held the event loop; RE2 answers any pattern in time linear in the
 * text times the size of the pattern's program, and both are bounded here.
 *
 * Refused when the schema is read, with its keyword and path (never run on
 * a backtracking engine, never read as something else):
 * - what RE2 cannot express: backreferences (`\1`, `\k<name>`), lookahead,
 *   lookbehind; a Unicode property by its long name (`\p{Letter}`: write
 *   `\p{L}`); a repetition count above 1000;
 * - a pattern whose program is over MAX_PROGRAM instructions (counted
 *   repetitions multiply it: `[a-z]{0,1000}` is 1,000), which would make each
 *   check slow however linear.
 *
 * ECMAScript's syntax is translated first (`\u00e9`, `\u{1F600}`, a
 * surrogate pair written as two `\u` escapes, named groups), and its `\s`
 * and `\S` keep their meaning (RE2's `\s` is ASCII whitespace only); an
 * escape `u` mode refuses (`\-` outside a class, common in schemas written
 * for Python or Java) reads as the punctuation itself. Left as RE2 reads
 * them: `.` also matches `\r`, U+2028 and U+2029.
 */
export interface LinearPattern {
  test(text: string): boolean;
  /** Instructions in the compiled program: what one character of text costs to check. */
  readonly size: number;
  /** The pattern as written: ajv keys its compiled patterns by it. */
  toString(): string;
}

/** The most instructions one pattern's program may have (MaskBench's largest of 8,239 patterns: 3,403; p99.9: 1,003). */
export const MAX_PROGRAM = 5_000;

const compiled = new BoundedCache<string, LinearPattern | string>(1024);

/** ECMAScript's whitespace, as `\s` means it there (RE2's is `[\t\n\f\r ]`). */
const WHITESPACE = "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";

/** The pattern's matcher, or why a linear-time engine cannot run it quickly. */
export function linearPattern(source: string): LinearPattern | string {
  return compiled.getOrCreate(source, () => {
    const refused = (why: string) => `a linear-time engine (RE2) cannot check it quickly (${why.slice(0, 160)}); backreferences, lookaround and very large repetitions are not supported: write the pattern without them`;
    if (/\\k</.test(source)) return refused("a named backreference");
    // A cheap bound before compiling: counted repetitions are what make a short pattern a large program.
    let estimate = source.length;
    for (const count of source.matchAll(/\{(\d{1,7})(?:,(\d{0,7}))?\}/g)) estimate += Number(count[2] || count[1]);
    if (estimate > 4 * MAX_PROGRAM) return refused(`its repetitions make a program of about ${estimate} instructions`);
    try {
      const pattern = RE2JS.compile(RE2JS.translateRegExp(withEcmaWhitespace(joinSurrogatePairs(source))));
      const size = pattern.programSize();
      if (size > MAX_PROGRAM) return refused(`its program has ${size} instructions, over ${MAX_PROGRAM}`);
      return { test: (text: string) => pattern.test(text), size, toString: () => `/${source}/` };
    } catch (error) {
      return refused(error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error));
    }
  });
}

/** The pattern's matcher; a pattern the engine cannot run quickly is an UnsupportedSchemaError naming `keyword` and `path`. */
export function checkedPattern(keyword: string, pattern: string, path: string): LinearPattern {
  const matcher = linearPattern(pattern);
  if (typeof matcher === "string") throw new UnsupportedSchemaError(keyword, path, matcher);
  return matcher;
}

/** `\uD83D\uDE00` as the one code point it writes (`\u{1F600}`): RE2 reads each half as a code point of its own, which no text holds. */
function joinSurrogatePairs(source: string): string {
  return source.replace(/\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})/gi, (_, high: string, low: string) => {
    const code = (parseInt(high, 16) - 0xd800) * 0x400 + (parseInt(low, 16) - 0xdc00) + 0x10000;
    return `\\u{${code.toString(16)}}`;
  });
}

/** `\s` and `\S` as ECMAScript means them, outside a class and `\s` inside one (RE2 cannot negate inside a class: `[\S]` keeps RE2's reading). */
function withEcmaWhitespace(source: string): string {
  let out = "";
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const char = source[at]!;
    if (char === "\\" && at + 1 < source.length) {
      const next = source[at + 1]!;
      at++;
      if (next === "s") out += inClass ? WHITESPACE : `[${WHITESPACE}]`;
      else if (next === "S" && !inClass) out += `[^${WHITESPACE}]`;
      else out += `\\${next}`;
      continue;
    }
    if (char === "[" && !inClass) inClass = true;
    else if (char === "]" && inClass) inClass = false;
    out += char;
  }
  return out;
}
