import { RuleSet } from "./gbnf-rules.js";
import { NOTATIONS, type NotationName, type ValueNotation } from "../base/value-notation.js";
import { KEYWORD_BY_NAME } from "./keyword-support.js";
import { GBNF_REPETITION_LIMIT, GBNF_STRING_LIMIT, type EmitContext, type Schema } from "./keywords/keyword.js";
import { JSON_VALUE_DEPTH, MAX_JSON_VALUE_DEPTH } from "./keywords/json-value.js";
import { emitType } from "./keywords/type-keyword.js";
import { emitUnion } from "./keywords/union-keywords.js";
import { emitConst, emitEnum } from "./keywords/value-keywords.js";
import { UnsupportedSchemaError } from "./unsupported-schema-error.js";
import { checkSchemaDepth } from "./schema-depth.js";
import { ConfigurationError } from "../base/configuration-error.js";

export { GBNF_REPETITION_LIMIT, GBNF_STRING_LIMIT };

/**
 * JSON Schema in narrowgauge's normalized form (readSchema's output:
 * draft-07, references inlined, allOf merged) → GBNF, for llama.cpp to
 * sample under. compileGbnf (gbnf-compiler.ts) is the public entry: it reads
 * a schema as a tool's params are read, then compiles it here.
 *
 * What the grammar produces is canonical JSON: compact (no whitespace) or
 * spaced (one space after each comma and colon, as the notation option says;
 * or a chat template's own argument syntax: value-notation.ts),
 * properties in schema key order, strings with JSON.stringify's escapes only,
 * and nothing after the final closing bracket. Every string and array is
 * bounded, so a model that loops inside a free-text field is stopped by the
 * grammar, not by maxTokens. Each keyword's support and emission are defined
 * together in schemas/keywords/; this file dispatches to them.
 */

export interface GbnfCompileOptions {
  /** Upper bound for strings that declare no maxLength, at most GBNF_STRING_LIMIT (4000). Defaults to 256 code points (a run's steps: what the step's room allows). */
  defaultMaxLength?: number;
  /** Upper bound for arrays that declare no maxItems. Defaults to 16 items. */
  defaultMaxItems?: number;
  /** How deep a free JSON value may nest (arrays and objects in arrays and objects). Defaults to 3 levels; at most 16. */
  freeValueDepth?: number;
  /** How values are written: JSON "compact" (the default) or "spaced", or a chat template's own argument syntax (value-notation.ts). */
  notation?: NotationName;
}

class Compiler implements EmitContext {
  readonly rules: RuleSet = new RuleSet();
  readonly defaultMaxLength: number;
  readonly defaultMaxItems: number;
  readonly freeValueDepth: number;
  readonly notation: ValueNotation;
  private readonly views = new Map<NotationName, EmitContext>();
  /**
   * Each subschema object's expression, per notation. Normalization writes a
   * `$ref`'s target as the same object wherever it is used, so a schema that
   * refers to one definition a thousand times compiles it once (its rules
   * are the same either way: RuleSet names a body once).
   */
  private readonly compiled = new Map<NotationName, WeakMap<object, string>>();

  constructor(options: GbnfCompileOptions) {
    this.defaultMaxLength = options.defaultMaxLength ?? 256;
    this.defaultMaxItems = options.defaultMaxItems ?? 16;
    this.freeValueDepth = options.freeValueDepth ?? JSON_VALUE_DEPTH;
    if (!Number.isInteger(this.freeValueDepth) || this.freeValueDepth < 0 || this.freeValueDepth > MAX_JSON_VALUE_DEPTH) {
      throw new ConfigurationError("freeValueDepth", `freeValueDepth must be an integer in [0, ${MAX_JSON_VALUE_DEPTH}]: ${this.freeValueDepth}`);
    }
    this.notation = Object.hasOwn(NOTATIONS, options.notation ?? "compact") ? NOTATIONS[options.notation ?? "compact"] : (undefined as never);
    if (!this.notation) throw new ConfigurationError("notation", `notation must be one of ${Object.keys(NOTATIONS).join(", ")}: ${String(options.notation)}`);
    for (const [option, value, most] of [["defaultMaxLength", this.defaultMaxLength, GBNF_STRING_LIMIT], ["defaultMaxItems", this.defaultMaxItems, GBNF_REPETITION_LIMIT]] as const) {
      if (!Number.isInteger(value) || value < 0 || value > most) {
        throw new ConfigurationError(option, `${option} must be an integer in [0, ${most}]: ${value}`);
      }
    }
  }

  within(notation: NotationName): EmitContext {
    if (notation === this.notation.name) return this;
    let view = this.views.get(notation);
    if (!view) {
      // A view shares this compiler's rules and bounds; only the notation differs (and views of views come back here).
      view = Object.create(this, { notation: { value: NOTATIONS[notation] } }) as EmitContext;
      this.views.set(notation, view);
    }
    return view;
  }

  /** Returns a GBNF expression matching exactly the compact JSON of values the schema admits (see file comment for narrowings). */
  compile(schema: unknown, path: string, nameHint: string): string {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      throw new UnsupportedSchemaError(String(schema), path, "a schema must be an object (boolean schemas are not supported)");
    }
    let memo = this.compiled.get(this.notation.name);
    if (!memo) this.compiled.set(this.notation.name, (memo = new WeakMap()));
    const known = memo.get(schema);
    if (known !== undefined) return known;
    const expression = this.emit(schema as Schema, path, nameHint);
    memo.set(schema, expression);
    return expression;
  }

  private emit(node: Schema, path: string, nameHint: string): string {
    checkKeywords(node, path);

    if (Object.hasOwn(node, "const")) return emitConst(this, node, path);
    if (Array.isArray(node.enum)) return emitEnum(this, node.enum, path, nameHint);
    const union = node.anyOf ?? node.oneOf;
    if (union !== undefined) return emitUnion(this, node, union, path, nameHint);
    if (Array.isArray(node.type)) return emitUnion(this, node, node.type.map((type) => ({ ...node, type })), path, nameHint);
    // No type, but keywords of one: JSON Schema applies each to values of its type and lets every other type through.
    if (node.type === undefined && constrainsSomeType(node)) return emitUnion(this, node, JSON_TYPES.map((type) => ({ ...node, type })), path, nameHint);
    return emitType(this, node, path, nameHint);
  }
}

/** Every JSON type; `integer` is one kind of `number`. */
const JSON_TYPES = ["object", "array", "string", "number", "boolean", "null"] as const;

/** Keywords that constrain values of one type (and say nothing about the others). */
const TYPED_KEYWORDS: ReadonlySet<string> = new Set([
  "properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties", "propertyNames", "dependencies", "dependentRequired", "dependentSchemas",
  "items", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains",
  "minLength", "maxLength", "pattern", "format", "x-ascii",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
]);

const constrainsSomeType = (node: Schema) => Object.keys(node).some((keyword) => TYPED_KEYWORDS.has(keyword));

function checkKeywords(node: Schema, path: string): void {
  for (const keyword of Object.keys(node)) {
    const definition = KEYWORD_BY_NAME.get(keyword);
    if (!definition) throw new UnsupportedSchemaError(keyword, path, "neither the grammar nor the post-sampling check can enforce it");
    definition.validate?.(node[keyword], path);
  }
}

/**
 * Compiles a schema already in normalized form (readSchema's output, or a
 * step schema built from such schemas) to GBNF text with root rule `root`.
 * Throws UnsupportedSchemaError for anything it cannot express or delegate
 * to ajv. A schema as a user wrote it goes through compileGbnf instead.
 */
export function compileNormalizedGbnf(schema: unknown, options: GbnfCompileOptions = {}): string {
  checkSchemaDepth(schema);
  const compiler = new Compiler(options);
  const root = compiler.compile(schema, "", "value");
  return compiler.rules.render(root);
}

/** What a grammar built around several schemas may use: each schema's expression, and the rule set to name its own rules in. */
export interface GbnfComposer {
  readonly rules: RuleSet;
  compile(schema: unknown, nameHint: string): string;
}

/**
 * A grammar whose root the caller writes around compiled schemas (a step in
 * a model family's call syntax: text, literals, and JSON arguments). `build`
 * returns the root expression; the schemas are in normalized form. Throws
 * UnsupportedSchemaError as compileNormalizedGbnf.
 */
export function composeGbnf(options: GbnfCompileOptions, build: (composer: GbnfComposer) => string): string {
  const compiler = new Compiler(options);
  const root = build({ rules: compiler.rules, compile: (schema, nameHint) => compiler.compile(schema, "", nameHint) });
  return compiler.rules.render(root);
}
