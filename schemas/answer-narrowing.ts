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

/** Every number below `node` narrowed to `numbers`, or null where a required one cannot be written. */
function narrowAll(node: Schema, numbers: readonly number[]): Schema | null {
  const wrapped = narrowNestedNumbers({ type: "object", properties: { value: node }, required: ["value"] }, numbers);
  return wrapped.unfillable === null ? (((wrapped.schema as Schema).properties as Schema).value as Schema) : null;
}

/**
 * One field of a subject's object: named as a field of the subject's own
 * results ("temperatureC", "conditions"), a number or a free string holds
 * what those results returned there, where any of that fits it; else a
 * number holds one of the subject's numbers. Null: it cannot be written.
 * Anything else (an object, an array) is left to the grounded numbers.
 */
function ownField(schema: unknown, returned: ReadonlyArray<number | string> | undefined, numbers: readonly number[]): unknown {
  if (!isSchema(schema)) return schema;
  const kind = isNumericSchema(schema) ? "number" : isFreeString(schema) ? "string" : null;
  if (kind === null) return schema;
  const fits = (returned ?? []).filter((value) => typeof value === kind && validateAgainst(schema, value).length === 0);
  if (fits.length > 0) return { ...schema, enum: fits };
  if (kind === "string") return schema;
  const subjects = numbers.filter((number) => validateAgainst(schema, number).length === 0);
  return subjects.length > 0 ? { ...schema, enum: subjects } : null;
}

/**
 * An object schema with a required subject field, as one branch per
 * subject: the field first (so the subject is written before its values)
 * and fixed to the subject, each of its own fields narrowed to the
 * subject's (ownField). A subject that cannot fill a required field has no
 * branch. Objects nested inside keep the grounded numbers, not the
 * subject's: pairing each level inside each branch would multiply the
 * grammar by the subjects at every level.
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
    const own: Schema = { [field]: { type: "string", const: subject } };
    let writable = true;
    for (const [name, child] of Object.entries(properties)) {
      if (name === field) continue;
      const narrowed = ownField(child, Object.hasOwn(byKey, name) ? byKey[name] : undefined, numbers);
      if (narrowed !== null) own[name] = narrowed;
      else if (required.has(name)) writable = false;
    }
    if (writable) branches.set(subject, { ...node, properties: own, required: [field, ...[...required].filter((name) => name !== field && Object.hasOwn(own, name))] });
  }
  return branches;
}

/**
 * An array of subject objects where the task names several subjects (G10
 * in the grammar): one item per named subject, in the task's order, each
 * its subject's branch, where the array's bounds admit that many; else null.
 */
function covering(node: Schema, items: Schema, subjects: SubjectValues): Schema | null {
  const count = subjects.cover.length;
  if (count === 0 || (typeof node.minItems === "number" && node.minItems > count) || (typeof node.maxItems === "number" && node.maxItems < count)) return null;
  const branches = subjectBranches(items, subjects);
  const tuple = subjects.cover.map((subject) => branches.get(subject));
  if (tuple.some((branch) => branch === undefined)) return null;
  return { ...node, items: tuple, additionalItems: false, minItems: count, maxItems: count };
}

/** Walks a schema down to its subject objects, each turned into its subject branches (see subjectBranches); nothing inside those is paired again. */
function pair(node: unknown, subjects: SubjectValues): unknown {
  if (!isSchema(node)) return node;
  const branches = [...subjectBranches(node, subjects).values()];
  if (branches.length > 0) return branches.length === 1 ? branches[0]! : { anyOf: branches };
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
    const alternatives = node[key];
    if (!Array.isArray(alternatives)) continue;
    const paired = alternatives.map((branch) => pair(branch, subjects));
    if (paired.some((branch, index) => branch !== alternatives[index])) take(key, paired);
  }
  return out;
}

/**
 * A structured answer's schema as this turn may write it (G4 in the
 * grammar): inside an object whose subject field holds Paris, only Paris's
 * numbers, and Paris's own results' values in a field of their name
 * (`subjects`); every other number, only grounded ones (`numbers`; null
 * leaves them free). Where no grounded number fits a required one, the
 * schema comes back with those numbers as they were (the answer must still
 * be writable; G4's check reads what was written).
 */
export function narrowAnswerSchema(schema: object, numbers: readonly number[] | null, subjects: SubjectValues | null): object {
  const paired = subjects && subjects.fields.length > 0 && Object.keys(subjects.bySubject).length > 0 ? (pair(schema, subjects) as Schema) : (schema as Schema);
  if (numbers === null) return paired;
  return narrowAll(paired, numbers) ?? paired;
}
