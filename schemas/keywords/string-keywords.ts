import { gbnfLiteral } from "../gbnf-literal.js";
import { rawCharClass, repeat, sequence } from "../gbnf-rules.js";
import { AFTER_PYTHON_STRING, STRING_QUOTES, UNWRITABLE_CHARACTERS } from "../../base/value-notation.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { checkedPattern } from "../dialects/linear-pattern.js";
import { formatGrammar } from "./format-grammars.js";
import { GBNF_REPETITION_LIMIT, GBNF_STRING_LIMIT, integerKeyword, type EmitContext, type KeywordDefinition, type Schema } from "./keyword.js";

/**
 * Strings. Length is counted in Unicode code points: one grammar character
 * unit (a code point or an escape sequence) decodes to exactly one code
 * point, which is what ajv's maxLength counts (not UTF-16 units). Every
 * string is bounded (by maxLength, or the compile option's default), so a
 * model that loops inside a free-text field is stopped by the grammar.
 */
export const STRING_KEYWORDS: readonly KeywordDefinition[] = [
  { keyword: "minLength", support: "grammar", example: { schema: { type: "string", minLength: 2 }, unwritable: "a" } },
  { keyword: "maxLength", support: "grammar", example: { schema: { type: "string", maxLength: 3 }, unwritable: "abcd" } },
  {
    keyword: "pattern",
    support: "post-check",
    example: { schema: { type: "string", maxLength: 8, pattern: "^[A-Z]+$" }, checked: "abc" },
    validate(value, path) {
      if (typeof value !== "string") throw new UnsupportedSchemaError("pattern", path, "must be a string");
      checkedPattern("pattern", value, path);
    },
  },
  // narrowgauge's own: the string is printable ASCII only (no byte tokens, so never invalid UTF-8).
  { keyword: "x-ascii", support: "grammar", example: { schema: { type: "string", maxLength: 8, "x-ascii": true }, unwritable: "é" } },
  // narrowgauge's own: digits in this string only as the given number literals (G4's answer grammar); ajv reads it as an annotation.
  { keyword: "x-grounded-numbers", support: "grammar", example: { schema: { type: "string", maxLength: 40, "x-grounded-numbers": { literals: ["18"], maxUnits: 8 } }, unwritable: "19" } },
];

type CharacterKind = "any" | "ascii" | "no-digit" | "after-number";
const JSON_CHARACTERS = { any: "json-char", ascii: "json-char-ascii", "no-digit": "json-char-no-digit", "after-number": "json-char-after-number" } as const;

/** The rule for one character unit of a string in the context's notation: any, ASCII only, no digit, or what may follow a number literal. */
function stringCharacter(context: EmitContext, kind: CharacterKind): string {
  const style = context.notation.strings;
  const { rules } = context;
  if (style === "json") {
    if (kind === "after-number") rules.primitive("json-char-no-digit");
    return rules.primitive(JSON_CHARACTERS[kind]);
  }
  const excluded = UNWRITABLE_CHARACTERS[style];
  // A Python repr's strings: printable ASCII only (Python escapes the rest).
  const ascii = kind === "ascii" || style === "python-repr";
  // A keyword argument's string may hold an apostrophe, but not before what follows its closing quote.
  const chars = (more: string) => (style === "python-raw" ? `${rawCharClass(`${excluded}${more}`, ascii)} | "'" (${rawCharClass(`'${AFTER_PYTHON_STRING}${more}`, ascii)})` : rawCharClass(`${excluded}${more}`, ascii));
  if (kind === "any" || kind === "ascii") return rules.add(`${style}-char${ascii ? "-ascii" : ""}`, chars(""));
  const noDigit = rules.add(`${style}-char-no-digit`, chars("0123456789"));
  return kind === "no-digit" ? noDigit : rules.add(`${style}-char-after-number`, `${chars("0123456789.")} | "." ${noDigit}`);
}

/** A string's quotes in the context's notation, as GBNF literals. */
export function stringQuotes(context: EmitContext): { open: string; close: string } {
  const quotes = STRING_QUOTES[context.notation.strings];
  return { open: gbnfLiteral(quotes.open), close: gbnfLiteral(quotes.close) };
}

/**
 * A string of the context's notation holding `minLength` to `maxLength`
 * characters. `shared`: the characters are a rule of their own, which every
 * string of these bounds refers to (the default bound: llama.cpp writes a
 * rule for each optional copy of each `x{0,n}` it reads, so a thousand
 * parameters with `json-char{0,1024}` inline would be a million rules).
 */
export function emitStringOf(context: EmitContext, minLength: number, maxLength: number, kind: "any" | "ascii" = "any", shared = false): string {
  const { open, close } = stringQuotes(context);
  const character = stringCharacter(context, kind);
  const characters = repeatCharacters(context, character, minLength, maxLength);
  return sequence(open, shared && characters !== "" ? context.rules.add(`${character}s-${minLength}-${maxLength}`, characters) : characters, close);
}

/**
 * `character` repeated `min` to `max` times (at most GBNF_STRING_LIMIT).
 * Within the repetition limit, `x{min,max}`; beyond it (llama.cpp reads a
 * count above 2000 as no bound at all), the required copies and then rules
 * that each take up to 999 characters more or a block of 1000 and the rest:
 * one rule per thousand, and the `x{0,999}` and `x{1000}` shared by them.
 */
function repeatCharacters(context: EmitContext, character: string, min: number, max: number): string {
  if (max <= GBNF_REPETITION_LIMIT) return repeat(character, min, max);
  const upTo = (most: number): string => {
    if (most < GBNF_REPETITION_LIMIT) return repeat(character, 0, most);
    const below = context.rules.add(`${character}-below-block`, repeat(character, 0, GBNF_REPETITION_LIMIT - 1));
    const block = context.rules.add(`${character}-block`, repeat(character, GBNF_REPETITION_LIMIT, GBNF_REPETITION_LIMIT));
    return context.rules.add(`${character}-up-to-${most}`, `${below} | ${sequence(block, upTo(most - GBNF_REPETITION_LIMIT))}`);
  };
  return sequence(repeat(character, min, min), upTo(max - min));
}

/**
 * G4's answer grammar: free text whose digits can only be the given number
 * literals, each followed by something that is not a digit (nor a "." and
 * a digit), so no other number can be written by gluing literals together.
 * `maxUnits` bounds the units (a character, or a literal with what follows
 * it); maxLength must allow for the longest unit and is checked by ajv.
 */
function groundedNumberString(context: EmitContext, node: Schema, path: string): string {
  const spec = node["x-grounded-numbers"] as { literals?: unknown; maxUnits?: unknown };
  const literals = Array.isArray(spec?.literals) ? spec.literals : null;
  const maxUnits = spec?.maxUnits;
  if (!literals || !literals.every((literal) => typeof literal === "string" && /^\d+(\.\d+)?$/.test(literal)) || typeof maxUnits !== "number" || !Number.isInteger(maxUnits) || maxUnits < 0 || maxUnits > GBNF_REPETITION_LIMIT) {
    throw new UnsupportedSchemaError("x-grounded-numbers", path, "expects { literals: unsigned decimal strings, maxUnits: integer within the repetition limit }");
  }
  const minLength = integerKeyword(node, "minLength", path) ?? 0;
  if (minLength > 1) throw new UnsupportedSchemaError("minLength", path, "with x-grounded-numbers only minLength 0 or 1 is supported");
  const { rules } = context;
  const { open, close } = stringQuotes(context);
  const prose = stringCharacter(context, "no-digit");
  const afterLiteral = stringCharacter(context, "after-number");
  if (literals.length === 0) return sequence(open, repeat(prose, minLength, maxUnits), close);
  const literal = rules.add("grounded-number", [...new Set(literals as string[])].map((text) => gbnfLiteral(text)).join(" | "));
  const unit = rules.add("answer-unit", `${prose} | ${literal} ${afterLiteral}`);
  const ending = `${literal} "."?`;
  if (minLength === 0 || maxUnits === 0) return sequence(open, repeat(unit, 0, maxUnits), `(${ending})?`, close);
  // At least one unit, or the text is a single number.
  return sequence(open, `(${sequence(unit, repeat(unit, 0, maxUnits - 1), `(${ending})?`)} | ${ending})`, close);
}

export function emitString(context: EmitContext, node: Schema, path: string): string {
  if (node["x-grounded-numbers"] !== undefined) return groundedNumberString(context, node, path);
  const minLength = integerKeyword(node, "minLength", path) ?? 0;
  const declaredMax = integerKeyword(node, "maxLength", path, GBNF_STRING_LIMIT);
  const maxLength = declaredMax ?? Math.max(context.defaultMaxLength, minLength);
  if (minLength > maxLength) throw new UnsupportedSchemaError("minLength", path, `minLength ${minLength} exceeds maxLength ${maxLength}`);
  if (node["x-ascii"] !== undefined && node["x-ascii"] !== true) throw new UnsupportedSchemaError("x-ascii", path, "must be true");
  // A format the grammar writes bounds its own length (defaultMaxLength does not apply); where the schema's own
  // minLength or maxLength would cut some of its texts, any string of those bounds is written and ajv checks the format.
  const format = formatGrammar(node.format);
  if (format && format.length[0] >= minLength && (declaredMax === undefined || format.length[1] <= declaredMax)) {
    const { open, close } = stringQuotes(context);
    return sequence(open, format.rule(context.rules, !context.notation.strings.startsWith("python")), close);
  }
  return emitStringOf(context, minLength, maxLength, node["x-ascii"] === true ? "ascii" : "any", declaredMax === undefined && minLength === 0);
}
