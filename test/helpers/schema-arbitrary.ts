import fc from "fast-check";

/**
 * Random schemas from the compiler's supported subset, each paired with an
 * arbitrary of instances that ajv accepts. Bounds stay small so that a
 * random-weight model can finish a value in a few hundred tokens.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export interface SchemaCase {
  schema: Record<string, unknown>;
  instance: fc.Arbitrary<Json>;
}

const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/);

const stringCase: fc.Arbitrary<SchemaCase> = fc
  .tuple(fc.nat({ max: 3 }), fc.nat({ max: 12 }))
  .map(([minLength, extra]) => ({
    schema: { type: "string", minLength, maxLength: minLength + extra },
    // "binary" units are whole code points (never lone surrogates): the unit ajv and the grammar count.
    // U+FFFD is excluded: the grammar reserves it to detect invalid UTF-8.
    instance: fc.string({ unit: "binary", minLength, maxLength: minLength + extra }).filter((text) => !text.includes("\uFFFD")),
  }));

const enumCase: fc.Arbitrary<SchemaCase> = fc
  .uniqueArray(fc.string({ unit: "grapheme", maxLength: 6 }).filter((text) => !text.includes("\uFFFD")), { minLength: 1, maxLength: 4 })
  .map((values) => ({ schema: { enum: values }, instance: fc.constantFrom(...values) }));

const constCase: fc.Arbitrary<SchemaCase> = fc
  .oneof(fc.string({ maxLength: 5 }).filter((text) => !text.includes("\uFFFD")), fc.integer(), fc.boolean())
  .map((value) => ({ schema: { const: value }, instance: fc.constant(value) }));

/** Whether JSON.stringify writes the double as the grammar can: not as plain digits from 9e15 to 1e21 (those the grammar writes with an exponent). */
const writtenAsGrammarWrites = (value: number) => Math.abs(value) < 9e15 || Math.abs(value) >= 1e21;

const numberCase: fc.Arbitrary<SchemaCase> = fc.boolean().map((nonNegative) => ({
  schema: nonNegative ? { type: "number", minimum: 0 } : { type: "number" },
  // The grammar writes magnitudes below 1e308 (see json-number-body); above, a literal could overflow.
  instance: fc.double({ noNaN: true, noDefaultInfinity: true, min: nonNegative ? 0 : -9.999999999999999e307, max: 9.999999999999999e307 }).filter(writtenAsGrammarWrites),
}));

const integerCase: fc.Arbitrary<SchemaCase> = fc.boolean().map((nonNegative) => ({
  schema: nonNegative ? { type: "integer", minimum: 0 } : { type: "integer" },
  // The grammar's integers are those below 9e15 in magnitude (docs/grammars.md), where every integer is exact.
  instance: fc.integer({ min: nonNegative ? 0 : -8999999999999999, max: 8999999999999999 }) as fc.Arbitrary<number>,
}));

const leafCase = fc.oneof(
  stringCase,
  enumCase,
  constCase,
  numberCase,
  integerCase,
  fc.constant<SchemaCase>({ schema: { type: "boolean" }, instance: fc.boolean() }),
  fc.constant<SchemaCase>({ schema: { type: "null" }, instance: fc.constant(null) }),
);

function objectCase(child: fc.Arbitrary<SchemaCase>): fc.Arbitrary<SchemaCase> {
  return fc
    .uniqueArray(fc.tuple(key, child, fc.boolean()), { minLength: 0, maxLength: 4, selector: ([name]) => name })
    .map((entries) => ({
      schema: {
        type: "object",
        properties: Object.fromEntries(entries.map(([name, { schema }]) => [name, schema])),
        required: entries.filter(([, , required]) => required).map(([name]) => name),
      },
      instance: fc.record(
        Object.fromEntries(entries.map(([name, { instance }]) => [name, instance])),
        { requiredKeys: entries.filter(([, , required]) => required).map(([name]) => name) },
      ) as fc.Arbitrary<Json>,
    }));
}

function arrayCase(child: fc.Arbitrary<SchemaCase>): fc.Arbitrary<SchemaCase> {
  return fc.tuple(child, fc.nat({ max: 2 }), fc.nat({ max: 3 })).map(([item, minItems, extra]) => ({
    schema: { type: "array", items: item.schema, minItems, maxItems: minItems + extra },
    instance: fc.array(item.instance, { minLength: minItems, maxLength: minItems + extra }),
  }));
}

/**
 * A tuple in draft-07's spelling (2020-12's prefixItems is read as it): one
 * to three positions, then no further items (additionalItems: false), any
 * (left out) or a schema's; an instance may stop before the tuple does,
 * down to minItems.
 */
function tupleCase(child: fc.Arbitrary<SchemaCase>): fc.Arbitrary<SchemaCase> {
  return fc.tuple(fc.array(child, { minLength: 1, maxLength: 3 }), fc.option(fc.oneof(fc.constant(false as const), child)), fc.nat({ max: 3 }), fc.nat({ max: 2 })).map(([positions, rest, least, extra]) => {
    const minItems = Math.min(least, positions.length);
    const maxItems = rest === false ? positions.length : positions.length + extra;
    const item = (index: number): fc.Arbitrary<Json> => (index < positions.length ? positions[index]!.instance : rest === null ? freeJson : (rest as SchemaCase).instance);
    return {
      schema: { type: "array", items: positions.map((position) => position.schema), ...(rest === null ? {} : { additionalItems: rest === false ? false : rest.schema }), minItems, maxItems },
      instance: fc.integer({ min: minItems, max: maxItems }).chain((length) => fc.tuple(...Array.from({ length }, (_, index) => item(index)))),
    };
  });
}

/** A code-point string of 1 to 8 units, a map key the grammar can write. */
const mapKey = fc.string({ unit: "binary", minLength: 1, maxLength: 8 }).filter((text) => !text.includes("\uFFFD"));

/** `additionalProperties: <schema>`, a map of at most 3 entries (ajv keeps distinct keys; so does the instance). */
function mapCase(child: fc.Arbitrary<SchemaCase>): fc.Arbitrary<SchemaCase> {
  return fc.tuple(child, fc.nat({ max: 3 })).map(([value, maxProperties]) => ({
    schema: { type: "object", additionalProperties: value.schema, maxProperties },
    instance: fc.dictionary(mapKey, value.instance, { maxKeys: maxProperties }) as fc.Arbitrary<Json>,
  }));
}

/** Any JSON value the default bounds admit: shallow here, and strings and containers short. */
const freeJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 2 },
    fc.string({ unit: "binary", maxLength: 8 }).filter((text) => !text.includes("\uFFFD")),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 }).filter(writtenAsGrammarWrites),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(mapKey, tie("value"), { maxKeys: 3 }) as fc.Arbitrary<Json>,
  ),
})).value;

const freeValueCase: fc.Arbitrary<SchemaCase> = fc.constantFrom<Record<string, unknown>>({}, { description: "anything" }).map((schema) => ({ schema, instance: freeJson }));

function unionCase(child: fc.Arbitrary<SchemaCase>): fc.Arbitrary<SchemaCase> {
  return fc.array(child, { minLength: 2, maxLength: 3 }).map((branches) => ({
    schema: { anyOf: branches.map((branch) => branch.schema) },
    instance: fc.oneof(...branches.map((branch) => branch.instance)),
  }));
}

export const schemaCase: fc.Arbitrary<SchemaCase> = fc.letrec<{ node: SchemaCase }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafCase,
    objectCase(tie("node")),
    arrayCase(tie("node")),
    tupleCase(tie("node")),
    unionCase(tie("node")),
    mapCase(tie("node")),
    freeValueCase,
  ),
})).node;

/** Object-rooted cases, the shape a tool's parameters have. */
export const objectSchemaCase: fc.Arbitrary<SchemaCase> = objectCase(schemaCase);

/**
 * Schemas at the compiler's default bounds, the way real tool definitions
 * come (strings without maxLength, arrays without maxItems): arrays of
 * strings, of objects and of arrays, nested objects a few levels deep. For
 * what llama.cpp's parser accepts, not for sampling (their values are long).
 */
const unboundedLeaf = fc.oneof(
  fc.constant({ type: "string" }),
  fc.constant({ type: "number" }),
  fc.constant({ type: "integer", minimum: 0 }),
  fc.constant({ type: "boolean" }),
  fc.constant({ enum: ["a", "b", "c"] }),
  fc.constant({ type: "string", maxLength: 1000 }),
);

export const defaultBoundsSchema: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    unboundedLeaf,
    fc.uniqueArray(fc.tuple(key, tie("node"), fc.boolean()), { minLength: 1, maxLength: 4, selector: ([name]) => name }).map((entries) => ({
      type: "object",
      properties: Object.fromEntries(entries.map(([name, schema]) => [name, schema])),
      required: entries.filter(([, , required]) => required).map(([name]) => name),
    })),
    tie("node").map((items) => ({ type: "array", items })),
    fc.array(tie("node"), { minLength: 2, maxLength: 3 }).map((branches) => ({ anyOf: branches })),
  ),
})).node;
