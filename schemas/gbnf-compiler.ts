import { gbnfJsonLiteral, gbnfLiteral } from "./gbnf-literal.js";
import { repeat, RuleSet, sequence } from "./gbnf-rules.js";
import { KEYWORD_SUPPORT } from "./keyword-support.js";
import { UnsupportedSchemaError } from "./unsupported-schema-error.js";

/**
 * TypeBox (JSON Schema) → GBNF, for llama.cpp to sample under.
 *
 * What the grammar produces is compact canonical JSON: no whitespace,
 * properties in schema key order, strings with JSON.stringify's escapes only,
 * and nothing after the final closing bracket. Every string and array is
 * bounded, so a model that loops inside a free-text field is stopped by the
 * grammar, not by maxTokens.
 *
 * String length is counted in Unicode code points everywhere: one grammar
 * character unit (a code point or an escape sequence) decodes to exactly one
 * code point, which is what ajv's maxLength counts (not UTF-16 units).
 */

export interface GbnfCompileOptions {
  /** Upper bound for strings that declare no maxLength. Defaults to 256 code points. */
  defaultMaxLength?: number;
  /** Upper bound for arrays that declare no maxItems. Defaults to 16 items. */
  defaultMaxItems?: number;
}

/**
 * Largest repetition bound we emit. llama.cpp expands `x{m,n}` into nested
 * rules and rejects counts near 2000 (measured with llama.cpp as node-llama-cpp
 * 3.21.1 ships it); stay far below.
 */
export const GBNF_REPETITION_LIMIT = 1000;

type Schema = Record<string, unknown>;

class Compiler {
  readonly rules = new RuleSet();
  private readonly defaultMaxLength: number;
  private readonly defaultMaxItems: number;

  constructor(options: GbnfCompileOptions) {
    this.defaultMaxLength = options.defaultMaxLength ?? 256;
    this.defaultMaxItems = options.defaultMaxItems ?? 16;
    for (const [option, value] of [["defaultMaxLength", this.defaultMaxLength], ["defaultMaxItems", this.defaultMaxItems]] as const) {
      if (!Number.isInteger(value) || value < 0 || value > GBNF_REPETITION_LIMIT) {
        throw new RangeError(`${option} must be an integer in [0, ${GBNF_REPETITION_LIMIT}]: ${value}`);
      }
    }
  }

  /** Returns a GBNF expression matching exactly the compact JSON of values the schema admits (see file comment for narrowings). */
  compile(schema: unknown, path: string, nameHint: string): string {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      throw new UnsupportedSchemaError(String(schema), path, "a schema must be an object (boolean schemas are not supported)");
    }
    const node = schema as Schema;
    checkKeywords(node, path);

    if (Object.hasOwn(node, "const")) return gbnfJsonLiteral(checkedLiteral(node.const, "const", path));
    if (Array.isArray(node.enum)) return this.alternatives(uniqueJsonLiterals(node.enum, path), nameHint);
    const union = node.anyOf ?? node.oneOf;
    if (union !== undefined) return this.union(node, union, path, nameHint);
    if (Array.isArray(node.type)) {
      const branches = node.type.map((type) => ({ ...node, type }));
      return this.union(node, branches, path, nameHint);
    }

    switch (node.type) {
      case "string":
        return this.string(node, path);
      case "number":
        return this.number(node, false);
      case "integer":
        return this.number(node, true);
      case "boolean":
        return '("true" | "false")';
      case "null":
        return '"null"';
      case "object":
        return this.object(node, path, nameHint);
      case "array":
        return this.array(node, path, nameHint);
      case undefined:
        throw new UnsupportedSchemaError("type", path, "the schema admits any JSON value (no type, const, enum or anyOf); the grammar needs a bounded shape");
      default:
        throw new UnsupportedSchemaError("type", path, `unknown type ${JSON.stringify(node.type)}`);
    }
  }

  private union(node: Schema, branches: unknown, path: string, nameHint: string): string {
    const keyword = Object.hasOwn(node, "anyOf") ? "anyOf" : Object.hasOwn(node, "oneOf") ? "oneOf" : "type";
    if (!Array.isArray(branches) || branches.length === 0) {
      throw new UnsupportedSchemaError(keyword, path, "a union needs at least one branch");
    }
    if (keyword !== "type" && Object.hasOwn(node, "type")) {
      throw new UnsupportedSchemaError(keyword, path, `"type" beside "${keyword}" is ambiguous; put the type in each branch`);
    }
    const expressions = branches.map((branch, index) =>
      this.compile(branch, `${path}/${keyword}/${index}`, `${nameHint}-${branchLabel(branch) ?? index}`),
    );
    return this.alternatives(expressions, nameHint);
  }

  private alternatives(expressions: string[], nameHint: string): string {
    const unique = [...new Set(expressions)];
    if (unique.length === 1) return unique[0]!;
    return this.rules.add(nameHint, unique.join(" | "));
  }

  /**
   * G4's answer grammar: free text whose digits can only be the given number
   * literals, each followed by something that is not a digit (nor a "." and
   * a digit), so no other number can be written by gluing literals together.
   * `maxUnits` bounds the units (a character, or a literal with what follows
   * it); maxLength must allow for the longest unit and is checked by ajv.
   */
  private groundedNumberString(node: Schema, path: string): string {
    const spec = node["x-grounded-numbers"] as { literals?: unknown; maxUnits?: unknown };
    const literals = Array.isArray(spec?.literals) ? spec.literals : null;
    const maxUnits = spec?.maxUnits;
    if (!literals || !literals.every((literal) => typeof literal === "string" && /^\d+(\.\d+)?$/.test(literal)) || typeof maxUnits !== "number" || !Number.isInteger(maxUnits) || maxUnits < 0 || maxUnits > GBNF_REPETITION_LIMIT) {
      throw new UnsupportedSchemaError("x-grounded-numbers", path, "expects { literals: unsigned decimal strings, maxUnits: integer within the repetition limit }");
    }
    const minLength = integerKeyword(node, "minLength", path) ?? 0;
    if (minLength > 1) throw new UnsupportedSchemaError("minLength", path, "with x-grounded-numbers only minLength 0 or 1 is supported");
    const prose = this.rules.primitive("json-char-no-digit");
    const afterLiteral = this.rules.primitive("json-char-after-number");
    if (literals.length === 0) return sequence('"\\""', repeat(prose, minLength, maxUnits), '"\\""');
    const literal = this.rules.add("grounded-number", [...new Set(literals as string[])].map((text) => gbnfLiteral(text)).join(" | "));
    const unit = this.rules.add("answer-unit", `${prose} | ${literal} ${afterLiteral}`);
    const ending = `${literal} "."?`;
    if (minLength === 0 || maxUnits === 0) return sequence('"\\""', repeat(unit, 0, maxUnits), `(${ending})?`, '"\\""');
    // At least one unit, or the text is a single number.
    return sequence('"\\""', `(${sequence(unit, repeat(unit, 0, maxUnits - 1), `(${ending})?`)} | ${ending})`, '"\\""');
  }

  private string(node: Schema, path: string): string {
    if (node["x-grounded-numbers"] !== undefined) return this.groundedNumberString(node, path);
    const minLength = integerKeyword(node, "minLength", path) ?? 0;
    const maxLength = integerKeyword(node, "maxLength", path) ?? Math.max(this.defaultMaxLength, minLength);
    if (minLength > maxLength) throw new UnsupportedSchemaError("minLength", path, `minLength ${minLength} exceeds maxLength ${maxLength}`);
    if (node["x-ascii"] !== undefined && node["x-ascii"] !== true) throw new UnsupportedSchemaError("x-ascii", path, "must be true");
    const characters = repeat(this.rules.primitive(node["x-ascii"] === true ? "json-char-ascii" : "json-char"), minLength, maxLength);
    return sequence('"\\""', characters, '"\\""');
  }

  private number(node: Schema, integer: boolean): string {
    // A non-negative lower bound makes the minus sign unsampleable; the
    // exact bound is still checked by ajv after sampling.
    const lowerBound = [node.minimum, node.exclusiveMinimum].find((bound) => typeof bound === "number");
    const sign = typeof lowerBound === "number" && lowerBound >= 0 ? "" : '"-"?';
    const unsigned = sign === "" ? "-unsigned" : "";
    if (integer) return this.rules.add(`integer${unsigned}`, sequence(sign, `(${this.rules.primitive("json-integer-digits")})`));
    this.rules.primitive("json-fraction");
    this.rules.primitive("json-exponent");
    return this.rules.add(`number${unsigned}`, sequence(sign, `(${this.rules.primitive("json-number-body")})`));
  }

  private object(node: Schema, path: string, nameHint: string): string {
    if (node.additionalProperties !== undefined && typeof node.additionalProperties !== "boolean") {
      throw new UnsupportedSchemaError("additionalProperties", path, "only true or false is supported; the grammar emits the declared properties alone");
    }
    const properties = declaredProperties(node, path);
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const name of required) {
      if (!Object.hasOwn(properties, name)) throw new UnsupportedSchemaError("required", path, `required property "${name}" is not declared in properties`);
    }
    const entries = Object.entries(properties).map(([key, value]) => ({
      required: required.has(key),
      pair: sequence(gbnfLiteral(`${JSON.stringify(key)}:`), this.compile(value, `${path}/properties/${key}`, `${nameHint}-${key}`)),
    }));

    // Comma placement with optional properties, without ambiguity: walking
    // from the last property back, `first` matches the rest when nothing has
    // been written yet, `after` when something has (so it starts with ",").
    // Keys are distinct literals, so every alternative starts differently.
    const hasOptional = entries.some((entry) => !entry.required);
    let after = "";
    let first = "";
    for (let index = entries.length - 1; index >= 0; index--) {
      const entry = entries[index]!;
      const taken = sequence(entry.pair, after);
      first = entry.required ? taken : first === "" ? `(${taken})?` : `(${taken} | ${first})`;
      after = entry.required ? sequence('","', entry.pair, after) : sequence(`("," ${entry.pair})?`, after);
      // With optional properties `after` is referenced twice per level; name it to keep the grammar linear in size.
      if (hasOptional && after !== "" && index > 0) after = this.rules.add(`${nameHint}-after-${index}`, after);
    }
    return this.rules.add(nameHint, sequence('"{"', first, '"}"'));
  }

  private array(node: Schema, path: string, nameHint: string): string {
    if (Array.isArray(node.items)) return this.tuple(node, node.items, path, nameHint);
    if (node.items === undefined) throw new UnsupportedSchemaError("items", path, "an array needs an items schema to be bounded");
    const minItems = integerKeyword(node, "minItems", path) ?? 0;
    const maxItems = integerKeyword(node, "maxItems", path) ?? Math.max(this.defaultMaxItems, minItems);
    if (minItems > maxItems) throw new UnsupportedSchemaError("minItems", path, `minItems ${minItems} exceeds maxItems ${maxItems}`);
    if (maxItems === 0) return '"[]"';
    const item = this.compile(node.items, `${path}/items`, `${nameHint}-item`);
    const rest = repeat(`("," ${item})`, Math.max(minItems - 1, 0), maxItems - 1);
    const body = minItems === 0 ? `(${sequence(item, rest)})?` : sequence(item, rest);
    return this.rules.add(nameHint, sequence('"["', body, '"]"'));
  }

  private tuple(node: Schema, items: unknown[], path: string, nameHint: string): string {
    if (node.additionalItems !== false || node.minItems !== items.length || node.maxItems !== items.length) {
      throw new UnsupportedSchemaError("items", path, "tuples need additionalItems: false and minItems = maxItems = the item count (as TypeBox emits)");
    }
    const parts = items.map((item, index) => this.compile(item, `${path}/items/${index}`, `${nameHint}-${index}`));
    return this.rules.add(nameHint, sequence('"["', parts.join(' "," '), '"]"'));
  }
}


/** A readable rule-name part for a union branch: the value of its first property when that is a string const (a tool name). */
function branchLabel(branch: unknown): string | undefined {
  const properties = (branch as Schema | null)?.properties as Record<string, Schema> | undefined;
  const firstProperty = properties ? Object.values(properties)[0] : undefined;
  return typeof firstProperty?.const === "string" ? firstProperty.const : undefined;
}

/**
 * An object schema's own declared properties. Names JavaScript objects
 * inherit (`constructor`, `toString`…) are ordinary names here. `__proto__` is
 * refused: JSON.parse keeps it as data, but any code that copies arguments by
 * assignment (Object.assign, a for-in copy, a deep merge) turns it into a
 * prototype change, and no tool needs a parameter of that name. A `properties`
 * object with a prototype of its own is refused too: `{ __proto__: … }` in an
 * object literal sets the prototype instead of declaring a property, and the
 * parameter would vanish silently.
 */
function declaredProperties(node: Schema, path: string): Record<string, unknown> {
  const properties = node.properties ?? {};
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) {
    throw new UnsupportedSchemaError("properties", path, "must be an object of schemas");
  }
  const prototype = Object.getPrototypeOf(properties);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new UnsupportedSchemaError("properties", path, 'the properties object has a prototype of its own (was "__proto__" written as a key in an object literal? use ["__proto__"] or another name)');
  }
  if (Object.hasOwn(properties, "__proto__")) {
    throw new UnsupportedSchemaError("properties", `${path}/properties/__proto__`, '"__proto__" cannot be a parameter name: copying arguments by assignment would change an object\'s prototype');
  }
  return properties as Record<string, unknown>;
}

function checkKeywords(node: Schema, path: string): void {
  for (const keyword of Object.keys(node)) {
    if (!Object.hasOwn(KEYWORD_SUPPORT, keyword)) {
      throw new UnsupportedSchemaError(keyword, path, "neither the grammar nor the post-sampling check can enforce it");
    }
  }
  if (node.additionalItems !== undefined && node.additionalItems !== false) {
    throw new UnsupportedSchemaError("additionalItems", path, "only additionalItems: false is supported");
  }
}

function integerKeyword(node: Schema, keyword: string, path: string): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new UnsupportedSchemaError(keyword, path, `must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  if (value > GBNF_REPETITION_LIMIT) {
    throw new UnsupportedSchemaError(keyword, path, `${value} exceeds the grammar repetition limit ${GBNF_REPETITION_LIMIT} (llama.cpp rejects counts near 2000)`);
  }
  return value;
}

function uniqueJsonLiterals(values: unknown[], path: string): string[] {
  if (values.length === 0) throw new UnsupportedSchemaError("enum", path, "an empty enum admits no value");
  return [...new Set(values.map((value) => gbnfJsonLiteral(checkedLiteral(value, "enum", path))))];
}

/** U+FFFD is how decoded output reveals invalid UTF-8, so no schema may ask the model to write it. */
function checkedLiteral(value: unknown, keyword: string, path: string): unknown {
  if (JSON.stringify(value).includes("\uFFFD")) {
    throw new UnsupportedSchemaError(keyword, path, "U+FFFD is reserved: in decoded output it marks invalid UTF-8");
  }
  return value;
}

/**
 * Compiles a schema to GBNF text with root rule `root`. Throws
 * UnsupportedSchemaError for anything it cannot express or delegate to ajv.
 */
export function compileGbnf(schema: unknown, options: GbnfCompileOptions = {}): string {
  const compiler = new Compiler(options);
  const root = compiler.compile(schema, "", "value");
  return compiler.rules.render(root);
}
