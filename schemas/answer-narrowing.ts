import { narrowNestedNumbers } from "./nested-numbers.js";
import { isFreeString, isNumericSchema, stringEnumValues } from "./schema-shapes.js";
import { validateAgainst } from "./validator-cache.js";

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * What a structured answer's values may be, subject by subject (G4's
 * pairing, in the grammar): `fields` are the property names that hold a
 * subject (the tools' subject parameters: "city"); for each subject,
 * `numbers` are those its sources grounded (its own calls', the task's, and
 * those of calls about no subject), `byKey` what its own calls returned
 * under each property name ("temperatureC" → 18, "conditions" → "light
 * rain").
 */
export interface SubjectValues {
  readonly fields: readonly string[];
  /** The subjects an answer must cover, in the task's order (G10: several values of one subject parameter). */
  readonly cover: readonly string[];
  readonly bySubject: Readonly<Record<string, { readonly numbers: readonly number[]; readonly byKey: Readonly<Record<string, ReadonlyArray<number | string>>> }>>;
}

/** Every number below `node` narrowed to `numbers` (null: as it is), or null where a required one cannot be written. */
function narrowAll(node: Schema, numbers: readonly number[]): Schema | null {
  const wrapped = narrowNestedNumbers({ type: "object", properties: { value: node }, required: ["value"] }, numbers);
  return wrapped.unfillable === null ? (((wrapped.schema as Schema).properties as Schema).value as Schema) : null;
}

/**
 * A property named as a result's field ("conditions"), a number or a free
 * string: narrowed to what the subject's own calls returned there, where
 * any of that fits it; else as it was.
 */
function asReturned(schema: unknown, returned: ReadonlyArray<number | string> | undefined): unknown {
  if (!isSchema(schema) || !returned) return schema;
  const kind = isNumericSchema(schema) ? "number" : isFreeString(schema) ? "string" : null;
  if (kind === null) return schema;
  const fits = returned.filter((value) => typeof value === kind && validateAgainst(schema, value).length === 0);
  return fits.length > 0 ? { ...schema, enum: fits } : schema;
}

/**
 * An object schema with a required subject field, as one branch per
 * subject: the field first (so the subject is written before its values)
 * and fixed to the subject; a field named as one of its results' fields
 * holds what that result returned there; every other number below it, that
 * subject's. A subject whose numbers cannot fill a required one has no
 * branch; with none left, the object is as it was.
 */
function subjectBranches(node: Schema, subjects: SubjectValues): Map<string, Schema> {
  const branches = new Map<string, Schema>();
  if (!isSchema(node.properties)) return branches;
  const properties = node.properties;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const field = subjects.fields.find((name) => required.has(name) && isSchema(properties[name]) && (isFreeString(properties[name] as Schema) || stringEnumValues(properties[name] as Schema) !== null));
  if (field === undefined) return branches;
  const domain = stringEnumValues(properties[field] as Schema);
  for (const [subject, { numbers, byKey }] of Object.entries(subjects.bySubject)) {
    if (domain && !domain.includes(subject)) continue;
    const { [field]: _subject, ...others } = properties;
    const rest = Object.fromEntries(Object.entries(others).map(([name, child]) => [name, asReturned(child, Object.hasOwn(byKey, name) ? byKey[name] : undefined)]));
    const narrowed = narrowAll({ ...node, properties: rest, required: [...required].filter((name) => name !== field) }, numbers);
    if (narrowed) branches.set(subject, { ...narrowed, properties: { [field]: { type: "string", const: subject }, ...(narrowed.properties as Schema) }, required: [field, ...((narrowed.required as string[]) ?? [])] });
  }
  return branches;
}

/** An object schema as its subject branches (see subjectBranches), or as it was where it has none. */
function bySubject(node: Schema, subjects: SubjectValues): Schema {
  const branches = [...subjectBranches(node, subjects).values()];
  if (branches.length === 0) return node;
  return branches.length === 1 ? branches[0]! : { anyOf: branches };
}

/**
 * An array of subject objects where the task names several subjects (G10
 * in the grammar): one item per named subject, in the task's order, each
 * its subject's branch, where the array's bounds admit that many; else as
 * it was.
 */
function covering(node: Schema, items: Schema, subjects: SubjectValues): Schema | null {
  const count = subjects.cover.length;
  if (count === 0 || (typeof node.minItems === "number" && node.minItems > count) || (typeof node.maxItems === "number" && node.maxItems < count)) return null;
  const branches = subjectBranches(items, subjects);
  const tuple = subjects.cover.map((subject) => branches.get(subject));
  if (tuple.some((branch) => branch === undefined)) return null;
  return { ...node, items: tuple, additionalItems: false, minItems: count, maxItems: count };
}

/** Walks a schema, pairing every object that holds a subject field (see bySubject). */
function pair(node: unknown, subjects: SubjectValues): unknown {
  if (!isSchema(node)) return node;
  let out: Schema = node;
  const take = (key: string, value: unknown) => {
    if (value !== node[key]) out = { ...out, [key]: value };
  };
  if (isSchema(node.properties)) take("properties", Object.fromEntries(Object.entries(node.properties).map(([name, child]) => [name, pair(child, subjects)])));
  if (isSchema(node.items)) {
    const covered = covering(node, node.items, subjects);
    if (covered) return covered;
    take("items", pair(node.items, subjects));
  }
  if (Array.isArray(node.items)) {
    const items = node.items.map((child) => pair(child, subjects));
    if (items.some((child, index) => child !== (node.items as unknown[])[index])) take("items", items);
  }
  if (isSchema(node.additionalProperties)) take("additionalProperties", pair(node.additionalProperties, subjects));
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    const paired = branches.map((branch) => pair(branch, subjects));
    if (paired.some((branch, index) => branch !== branches[index])) take(key, paired);
  }
  return isSchema(out.properties) ? bySubject(out, subjects) : out;
}

/**
 * A structured answer's schema as this turn may write it (G4 in the
 * grammar): inside an object whose subject field holds Paris, only Paris's
 * numbers, and Paris's own results' values in a field of their name
 * (`subjects`); every other number, only grounded ones (`numbers`;
 * null leaves them free). Where no grounded number fits a required one, the
 * schema comes back with those numbers as they were (the answer must still
 * be writable; G4's check reads what was written).
 */
export function narrowAnswerSchema(schema: object, numbers: readonly number[] | null, subjects: SubjectValues | null): object {
  const paired = subjects && subjects.fields.length > 0 && Object.keys(subjects.bySubject).length > 0 ? (pair(schema, subjects) as Schema) : (schema as Schema);
  if (numbers === null) return paired;
  return narrowAll(paired, numbers) ?? paired;
}
