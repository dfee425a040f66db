import { RE2JS } from "re2js";
import { BoundedCache } from "../../base/bounded-cache.js";

/**
 * A schema's `pattern` (and `patternProperties`' keys) as a linear-time
 * matcher: RE2 semantics through re2js (pure JavaScript, so the page runs
 * the same engine), never the backtracking RegExp. A schema is input a
 * client controls: `^(a+)+$` against 28 characters ran 94 s on V8's engine
 * and held the event loop; RE2 answers any pattern in time linear in the
 * text. What RE2 cannot express (backreferences, lookahead, lookbehind) is
 * refused when the schema is read, with its keyword and path; no pattern is
 * ever run on a backtracking engine. ECMAScript syntax is translated first
 * (`\u00e9`, `\u{1F600}`, named groups); an escape `u` mode refuses (`\-`
 * outside a class, common in schemas written for Python or Java) reads as
 * RE2 reads it, the punctuation itself.
 */
export interface LinearPattern {
  test(text: string): boolean;
  /** The pattern as written: ajv keys its compiled patterns by it. */
  toString(): string;
}

const compiled = new BoundedCache<string, LinearPattern | string>(1024);

/** The pattern's matcher, or why a linear-time engine cannot run it. */
export function linearPattern(source: string): LinearPattern | string {
  return compiled.getOrCreate(source, () => {
    try {
      const pattern = RE2JS.compile(RE2JS.translateRegExp(source));
      return { test: (text: string) => pattern.test(text), toString: () => `/${source}/` };
    } catch (error) {
      const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error);
      return `a linear-time engine (RE2) cannot run it (${detail.slice(0, 160)}); backreferences and lookaround are not supported: write the pattern without them`;
    }
  });
}
