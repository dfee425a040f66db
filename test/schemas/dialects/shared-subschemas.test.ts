import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { AJV_OPTIONS, compileOnce, withFormats } from "../../../schemas/dialects/ajv-setup.js";
import { normalizeSchema } from "../../../schemas/dialects/normalize-schema.js";
import { MIN_SHARED_CHARACTERS, sharedSubschemas } from "../../../schemas/dialects/shared-subschemas.js";
import { UnsupportedSchemaError } from "../../../schemas/unsupported-schema-error.js";
import { validateAgainst, validatorFor } from "../../../schemas/validator-cache.js";

/** An address-like object, long enough to be shared. */
const address = (extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties: {
    street: { type: "string", minLength: 1, maxLength: 120, description: "the street and number" },
    city: { type: "string", minLength: 1, maxLength: 80 },
    postcode: { type: "string", pattern: "^[0-9A-Z -]{3,10}$" },
    country: { enum: ["FR", "DE", "GB", "US"] },
    floor: { type: "integer", minimum: -3, maximum: 200 },
  },
  required: ["street", "city", "country"],
  additionalProperties: false,
  ...extra,
});

type Compiled = ((value: unknown) => boolean) & { errors?: unknown[] | null };

/** What a check tells a person (or a model, told the issues): the verdict and every issue but its schemaPath. */
const judged = (validate: Compiled, value: unknown) => {
  const valid = validate(value);
  return { valid, issues: valid ? [] : (validate.errors ?? []).map((error) => withoutPath(error as { schemaPath: string })) };
};
const withoutPath = ({ schemaPath: _path, ...rest }: { schemaPath: string }) => rest;

const VALUES: unknown[] = [
  { home: { street: "1 Rue X", city: "Paris", country: "FR" }, work: { street: "2 Main St", city: "Boston", country: "US", floor: 3 }, past: [] },
  { home: { street: "", city: "Paris", country: "XX", extra: 1 }, work: { city: 5 }, past: [{ street: "3", city: "Bonn", country: "DE", floor: 999 }, "no"] },
  { home: {}, work: null, past: [{ street: "a", city: "b", country: "GB", postcode: "lower" }] },
  { home: { street: "x", city: "y", country: "FR" }, work: { street: "x", city: "y", country: "FR" }, past: [{ street: "x", city: "y", country: "FR" }], note: "hi" },
  [],
  "text",
];

describe("repeated subschemas shared for the validator", () => {
  const schema = { type: "object", properties: { home: address(), work: { anyOf: [address(), { type: "null" }] }, past: { type: "array", items: address(), maxItems: 3 } }, required: ["home"] };

  it("writes a repeated subschema once, in definitions, and refers to it where it occurred", () => {
    const shared = sharedSubschemas(schema) as { properties: Record<string, unknown>; definitions: Record<string, unknown> };
    expect(Object.keys(shared.definitions)).toEqual(["shared-0"]);
    expect(shared.definitions["shared-0"]).toEqual(address());
    expect(shared.properties.home).toEqual({ $ref: "#/definitions/shared-0" });
    expect(shared.properties.work).toEqual({ anyOf: [{ $ref: "#/definitions/shared-0" }, { type: "null" }] });
    expect((shared.properties.past as { items: unknown }).items).toEqual({ $ref: "#/definitions/shared-0" });
    // The schema given is left as it was.
    expect(schema.properties.home).toEqual(address());
  });

  it("accepts and refuses what the schema itself does, with the same issues but for where they point in the schema", () => {
    const plain = withFormats(new Ajv(AJV_OPTIONS)).compile(schema);
    const shared = withFormats(new Ajv({ ...AJV_OPTIONS, inlineRefs: false })).compile(sharedSubschemas(schema));
    for (const value of VALUES) expect(judged(shared, value)).toEqual(judged(plain, value));
    expect(VALUES.map((value) => judged(plain, value).valid)).toEqual([true, false, false, true, false, false]);
    // validatorFor shares them: the issues a run reports are the schema's own.
    for (const value of VALUES) expect(validateAgainst(schema, value).map(withoutPath)).toEqual(judged(plain, value).issues);
  });

  it("leaves alone what has nothing worth sharing: no repeat, or repeats shorter than MIN_SHARED_CHARACTERS", () => {
    const once = { type: "object", properties: { home: address() } };
    expect(sharedSubschemas(once)).toBe(once);
    const small = { type: "object", properties: { a: { type: "string", maxLength: 3 }, b: { type: "string", maxLength: 3 } } };
    expect(JSON.stringify(small.properties.a).length).toBeLessThan(MIN_SHARED_CHARACTERS);
    expect(sharedSubschemas(small)).toBe(small);
  });

  it("leaves alone a schema that names or points at places ($ref, $id, definitions), where moving a subschema could change what they resolve to", () => {
    for (const extra of [{ $id: "https://example.com/s.json" }, { definitions: {} }]) {
      const marked = { ...schema, ...extra };
      expect(sharedSubschemas(marked)).toBe(marked);
    }
    const nested = { type: "object", properties: { a: address({ $ref: "#" }), b: address({ $ref: "#" }) } };
    expect(sharedSubschemas(nested)).toBe(nested);
  });

  it("reads data keywords as data: an enum or const holding objects is never shared nor read as a reference", () => {
    const big = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`key${index}`, { $ref: "#/x" }]));
    const data = { type: "object", properties: { a: { const: big }, b: { const: big }, c: { enum: [big] } } };
    const shared = sharedSubschemas(data) as { properties: Record<string, unknown>; definitions: Record<string, unknown> };
    expect(shared.definitions["shared-0"]).toEqual({ const: big });
    expect(shared.properties.c).toEqual({ enum: [big] });
  });

  it("keeps a property named __proto__ a property", () => {
    const properties = JSON.parse(`{"__proto__": ${JSON.stringify(address())}, "other": ${JSON.stringify(address())}}`) as Record<string, unknown>;
    const shared = sharedSubschemas({ type: "object", properties }) as { properties: Record<string, unknown> };
    expect(Object.hasOwn(shared.properties, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(shared.properties)).toBe(Object.prototype);
    const other = { street: "1 Rue X", city: "Paris", country: "FR" };
    expect(validateAgainst({ type: "object", properties }, { other })).toEqual([]);
    expect(validateAgainst({ type: "object", properties }, { other: { ...other, city: 1 } }).map((issue) => issue.instancePath)).toEqual(["/other/city"]);
  });

  it("refuses a schema the meta-schema refuses with the message it gave before (naming the place as written, not the shared copy)", () => {
    const twice = { type: "object", properties: { a: address({ enum: [1, 1] }), b: address({ enum: [1, 1] }) } };
    expect(() => validatorFor(twice)).toThrow(UnsupportedSchemaError);
    expect(() => validatorFor(twice)).toThrow(/data\/properties\/a\/enum must NOT have duplicate items/);
  });

  it("shares the copies a recursive reference leaves in a normalized schema", () => {
    const tree = { $defs: { node: { type: "object", properties: { name: { enum: Array.from({ length: 30 }, (_, index) => `name-${index}`) }, children: { type: "array", items: { $ref: "#/$defs/node" }, maxItems: 4 } }, required: ["name"] } }, $ref: "#/$defs/node" };
    const { schema: normalized } = normalizeSchema(tree);
    const shared = sharedSubschemas(normalized) as { definitions?: Record<string, unknown> };
    expect(Object.keys(shared.definitions ?? {}).length).toBeGreaterThan(0);
    const plain = withFormats(new Ajv(AJV_OPTIONS)).compile(normalized);
    for (const value of [{ name: "name-1", children: [{ name: "name-2", children: [{ name: "name-3" }] }] }, { name: "name-1", children: [{ children: [{ name: 3 }] }] }, { name: "name-1", children: [{ name: "x", children: [{ name: "name-3", children: [{ name: "name-4", children: [{ name: "name-5" }] }] }] }] }]) {
      expect(validateAgainst(normalized, value).map(withoutPath)).toEqual(judged(plain, value).issues);
    }
  });
});

describe("compileOnce", () => {
  it("compiles without ajv keeping the schema (its own cache grew with every schema compiled)", () => {
    const ajv = withFormats(new Ajv(AJV_OPTIONS));
    const held = () => (ajv as unknown as { _cache: Map<object, unknown> })._cache.size;
    const before = held();
    const validate = compileOnce(ajv, { type: "object", properties: { a: { type: "string" } } });
    expect(held()).toBe(before);
    expect(validate({ a: "x" })).toBe(true);
    expect(validate({ a: 1 })).toBe(false);
    expect(() => compileOnce(ajv, { type: "nonsense" })).toThrow();
    expect(held()).toBe(before);
  });
});
