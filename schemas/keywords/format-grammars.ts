import { rawCharClass, type RuleSet } from "../gbnf-rules.js";

/**
 * A `format` the grammar writes: its rule, and the shortest and longest
 * text that rule allows. Every text a rule allows is one ajv-formats (its
 * "full" mode, as the post-check runs it) accepts, but February 29th of a
 * common year, which ajv refuses after sampling; a rule may allow less than
 * ajv does (a subset that reads as the format is usually written). Each
 * text is printable ASCII without `"`, `\` or `<`, so it is written alike in
 * every notation (value-notation.ts) but for the apostrophe, which a Python
 * notation's strings leave out. Held to ajv-formats by
 * test/schemas/format-grammars.test.ts.
 */
export interface FormatGrammar {
  /** The shortest and the longest text the rule allows, in code points. */
  readonly length: readonly [min: number, max: number];
  /** Adds the rule (and the rules it uses) to `rules` and returns its name; `apostrophe`: whether the notation's strings may hold `'`. */
  rule(rules: RuleSet, apostrophe: boolean): string;
}

const HEX = "[0-9a-fA-F]";

/**
 * RFC 3339's full-date, each month to its last day, February to the 29th in
 * every year: whether a year is a leap year is ajv's to check (2023-02-29 is
 * writable, and refused after sampling).
 */
function date(rules: RuleSet): string {
  const days = (last: string) => rules.add(`day-to-${last}`, `"0" [1-9] | [12] [0-9]${last === "29" ? "" : ` | "3" [0${last === "31" ? "1" : ""}]`}`);
  return rules.add("format-date", `[0-9]{4} "-" (("0" [13578] | "1" [02]) "-" ${days("31")} | ("0" [469] | "11") "-" ${days("30")} | "02-" ${days("29")})`);
}

/**
 * RFC 3339's full-time as ajv-formats reads it (a time zone required):
 * no leap second, at most 9 fraction digits, a numeric offset's minutes
 * written with their colon or left out.
 */
const time = (rules: RuleSet) =>
  rules.add("format-time", '([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" [0-5] [0-9] ("." [0-9]{1,9})? ([Zz] | [+-] ([01] [0-9] | "2" [0-3]) (":" [0-5] [0-9])?)');

/**
 * An address of up to three dot-separated atoms of at most 24 characters,
 * `@`, and two to four labels of at most 40 (at most 238 characters in
 * all, so a `maxLength` of 254, RFC 5321's, takes the grammar). The atoms
 * hold what ajv-formats' atext does: letters, digits and
 * ``!#$%&'*+/=?^_`{|}~-``; labels letters, digits and inner hyphens.
 */
function email(rules: RuleSet, apostrophe: boolean): string {
  const atext = rules.add(apostrophe ? "email-atext" : "email-atext-no-apostrophe", rawCharClass(` "(),.:;<>@[\\]${apostrophe ? "" : "'"}`, true));
  const label = rules.add("email-label", "[a-zA-Z0-9] ([a-zA-Z0-9-]{0,38} [a-zA-Z0-9])?");
  return rules.add(apostrophe ? "format-email" : "format-email-no-apostrophe", `${atext}{1,24} ("." ${atext}{1,24}){0,2} "@" ${label} ("." ${label}){1,3}`);
}

/** The formats the grammar writes, by name; every other format ajv-formats knows is checked after sampling only. */
export const FORMAT_GRAMMARS: Readonly<Record<string, FormatGrammar>> = Object.freeze({
  // RFC 4122's textual form, either case (ajv-formats' `urn:uuid:` prefix is not written).
  uuid: { length: [36, 36], rule: (rules) => rules.add("format-uuid", `${HEX}{8} "-" ${HEX}{4} "-" ${HEX}{4} "-" ${HEX}{4} "-" ${HEX}{12}`) },
  date: { length: [10, 10], rule: date },
  time: { length: [9, 24], rule: time },
  // Written with its `T` (narrowgauge's post-check requires it, FORMAT_OVERRIDES).
  "date-time": { length: [20, 35], rule: (rules) => rules.add("format-date-time", `${date(rules)} "T" ${time(rules)}`) },
  email: { length: [5, 238], rule: email },
  // Dotted decimal without leading zeros, each part at most 255.
  ipv4: {
    length: [7, 15],
    rule: (rules) => {
      const part = rules.add("ipv4-part", '"25" [0-5] | "2" [0-4] [0-9] | "1" [0-9] [0-9] | [1-9] [0-9] | [0-9]');
      return rules.add("format-ipv4", `${part} "." ${part} "." ${part} "." ${part}`);
    },
  },
});

/** The grammar of a schema's `format`, where the grammar writes that format. */
export function formatGrammar(format: unknown): FormatGrammar | undefined {
  return typeof format === "string" && Object.hasOwn(FORMAT_GRAMMARS, format) ? FORMAT_GRAMMARS[format] : undefined;
}
