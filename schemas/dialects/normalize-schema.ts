import { BoundedCache } from "../../base/bounded-cache.js";
import { schemaKey } from "../schema-key.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { checkSchemaDepth } from "../schema-depth.js";
import { KNOWN_FORMATS } from "../keywords/format-keyword.js";
import { DOCUMENT_KEYWORDS, isDialectKeyword } from "./dialect-vocabulary.js";
import { ANNOTATIONS, isNothing, isRecord, mergeSchemas, NOTHING, type SchemaNode } from "./merge-schemas.js";
import { readDialect, type SchemaDialect } from "./schema-dialect.js";
import { ownContradiction, unsatisfiableAt } from "./unsatisfiable.js";

/** How many times one `$ref` target may nest inside itself before the nesting stops (the grammar's depth for recursive schemas). */
export const REF_DEPTH = 3;
/** Subschemas a normalized schema may hold once references are inlined; beyond, the schema is refused rather than grown without bound. */
export const MAX_NORMALIZED_NODES = 20_000;

export interface NormalizedSchema {
  /** The schema in the one form the compiler, the step schema and its validator read (draft-07, references inlined). */
  readonly schema: object;
  readonly dialect: SchemaDialect;
  /** Keywords outside the dialect, ignored as annotations: "path keyword", e.g. "/properties/id x-kubernetes-int-or-string". */
  readonly ignored: readonly string[];
}

/** Extension keywords narrowgauge's compiler reads (schemas/keywords/). */
const NARROWGAUGE_KEYWORDS: ReadonlySet<string> = new Set(["x-ascii", "x-grounded-numbers", "x-free-numbers"]);

const cache = new BoundedCache<string, NormalizedSchema>(512);

/**
 * A tool's schema as the rest of narrowgauge reads it, whatever dialect it
 * is written in (readDialect): local `$ref`s (JSON pointers into `$defs`
 * or `definitions`, `#`, anchors) inlined, a recursive one down to
 * REF_DEPTH levels (deeper, the recursive part admits nothing: a branch
 * holding it is dropped, an optional property leaves, an array empties);
 * `allOf` merged into one schema (mergeSchemas); a `oneOf`/`anyOf` with
 * other keywords beside it distributed into its branches; draft-04's
 * boolean `exclusiveMinimum`/`exclusiveMaximum` as numbers; 2020-12's
 * `prefixItems` as draft-07's array `items`; keywords outside the dialect,
 * and a `format` ajv-formats does not know, dropped and listed in `ignored`. Keywords the dialect defines are kept,
 * so the compiler still refuses the ones it cannot honour. A schema that
 * needs no change comes back as the same object. A schema that contradicts
 * itself as written (unsatisfiable.ts) is refused with its keyword and
 * path; a contradiction that only merging makes (allOf parts, keywords
 * distributed into a branch) admits nothing, like `false`. Throws
 * UnsupportedSchemaError.
 */
export function normalizeSchema(schema: object): NormalizedSchema {
  checkSchemaDepth(schema);
  refuseInheritedProperties(schema);
  return cache.getOrCreate(schemaKey(schema), () => {
    const { dialect } = readDialect(schema);
    const contradiction = unsatisfiableAt(schema, dialect);
    if (contradiction) throw new UnsupportedSchemaError(contradiction.keyword, contradiction.path, `no value satisfies it: ${contradiction.reason}`);
    const normalizer = new Normalizer(schema as SchemaNode, dialect);
    const normalized = normalizer.node(schema, "", []);
    if (isNothing(normalized)) throw new UnsupportedSchemaError("$ref", "", "no value satisfies the schema (its references or allOf parts exclude each other)");
    return { schema: normalized, dialect, ignored: normalizer.ignored };
  });
}

/**
 * Refuses a `properties` object with a prototype of its own (`{ __proto__: … }`
 * written in an object literal sets it instead of declaring a parameter),
 * before the cache: its key, the schema's JSON text, cannot see a prototype,
 * so a schema equal in JSON to one read before would pass unchecked (the
 * compiler refuses it too, object-keywords.ts, on what it is given).
 */
function refuseInheritedProperties(schema: object): void {
  const stack: Array<[unknown, string]> = [[schema, ""]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    const properties = (node as SchemaNode).properties;
    if (!Array.isArray(node) && isRecord(properties) && ![Object.prototype, null].includes(Object.getPrototypeOf(properties))) {
      throw new UnsupportedSchemaError("properties", path, 'the properties object has a prototype of its own (was "__proto__" written as a key in an object literal? use ["__proto__"] or another name)');
    }
    for (const [key, value] of Object.entries(node)) if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples") stack.push([value, `${path}/${key}`]);
  }
}

/** Keywords whose value is one subschema; whose value is a list of them; whose value maps names to them. */
const ONE = ["additionalProperties", "items", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];

class Normalizer {
  readonly ignored: string[] = [];
  private nodes = 0;
  private readonly anchors = new Map<string, unknown>();

  constructor(
    private readonly root: SchemaNode,
    private readonly dialect: SchemaDialect,
  ) {
    this.indexAnchors(root, 0);
  }

  /** `$anchor` (2019-09 on), and a plain-name `$id`/`id` ("#name") before it. */
  private indexAnchors(schema: unknown, depth: number): void {
    if (!isRecord(schema) || depth > 64) return;
    for (const key of ["$anchor", "$dynamicAnchor"]) if (typeof schema[key] === "string") this.anchors.set(schema[key] as string, schema);
    for (const key of ["$id", "id"]) if (typeof schema[key] === "string" && (schema[key] as string).startsWith("#")) this.anchors.set((schema[key] as string).slice(1), schema);
    for (const value of Object.values(schema)) {
      if (Array.isArray(value)) for (const item of value) this.indexAnchors(item, depth + 1);
      else if (isRecord(value)) this.indexAnchors(value, depth + 1);
    }
  }

  /** `schema` normalized; `refs` are the reference targets it sits inside, innermost last. */
  node(schema: unknown, path: string, refs: readonly unknown[]): SchemaNode {
    if (schema === true) return {};
    if (schema === false) return NOTHING;
    if (!isRecord(schema)) throw new UnsupportedSchemaError(String(schema), path, "a schema must be an object or a boolean");
    if (++this.nodes > MAX_NORMALIZED_NODES) throw new UnsupportedSchemaError("$ref", path, `inlining its references grows it past ${MAX_NORMALIZED_NODES} subschemas`);
    const node = typeof schema.$ref === "string" ? this.inlineRef(schema, path, refs) : this.ownKeywords(schema, path, refs);
    if (isNothing(node) || !Array.isArray(node.allOf)) return isNothing(node) ? NOTHING : this.distribute(node, path);
    const { allOf, ...rest } = node;
    const merged = (allOf as SchemaNode[]).reduce((whole, part, index) => mergeSchemas(whole, part, `${path}/allOf/${index}`), rest);
    return isNothing(merged) ? NOTHING : this.distribute(merged, path);
  }

  /** The reference's target normalized in its place; beside it, in 2019-09 on, the other keywords apply too. */
  private inlineRef(node: SchemaNode, path: string, refs: readonly unknown[]): SchemaNode {
    const { $ref, ...siblings } = node;
    const target = this.resolve($ref as string, path);
    if (refs.filter((ref) => ref === target).length >= REF_DEPTH) return NOTHING;
    const inlined = this.node(target, `${path}/$ref`, [...refs, target]);
    const modern = this.dialect === "2019-09" || this.dialect === "2020-12";
    const rest = modern ? this.ownKeywords(siblings, path, refs) : {};
    if (Object.keys(rest).length === 0) return inlined;
    return mergeSchemas(inlined, rest, path);
  }

  private resolve(ref: string, path: string): unknown {
    const hash = ref.indexOf("#");
    const base = hash < 0 ? ref : ref.slice(0, hash);
    const rootId = (this.root.$id ?? this.root.id) as string | undefined;
    if (base !== "" && base !== rootId) throw new UnsupportedSchemaError("$ref", path, `"${ref}" refers to another document; only references inside the schema are read`);
    const fragment = hash < 0 ? "" : decodeURIComponent(ref.slice(hash + 1));
    if (fragment === "" || fragment === "/") return this.root;
    if (!fragment.startsWith("/")) {
      const anchored = this.anchors.get(fragment);
      if (anchored === undefined) throw new UnsupportedSchemaError("$ref", path, `no anchor "${fragment}" in the schema`);
      return anchored;
    }
    let target: unknown = this.root;
    for (const token of fragment.slice(1).split("/")) {
      const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
      target = Array.isArray(target) ? target[Number(key)] : isRecord(target) && Object.hasOwn(target, key) ? target[key] : undefined;
      if (target === undefined) throw new UnsupportedSchemaError("$ref", path, `"${ref}" points at nothing in the schema`);
    }
    return target;
  }

  /** The node's keywords, each subschema normalized; outside the dialect dropped; the document's structure dropped. */
  private ownKeywords(node: SchemaNode, path: string, refs: readonly unknown[]): SchemaNode {
    const out: SchemaNode = {};
    let changed = false;
    for (const [key, value] of Object.entries(node)) {
      if (!isDialectKeyword(this.dialect, key)) {
        // narrowgauge's own extension keywords stay: the compiler reads them.
        if (NARROWGAUGE_KEYWORDS.has(key)) {
          out[key] = value;
          continue;
        }
        this.ignored.push(`${path || "/"} ${key}`);
        changed = true;
        continue;
      }
      if (DOCUMENT_KEYWORDS.has(key)) {
        changed = true;
        continue;
      }
      // A format no validator here knows is an annotation too (JSON Schema: implementations ignore formats they do not know).
      if (key === "format" && (typeof value !== "string" || !KNOWN_FORMATS.includes(value))) {
        this.ignored.push(`${path || "/"} format ${JSON.stringify(value)}`);
        changed = true;
        continue;
      }
      const next = this.keyword(key, value, `${path}/${key}`, refs);
      if (next !== value) changed = true;
      out[key] = next;
    }
    const translated = this.translate(out);
    return changed || translated !== out ? translated : node;
  }

  private keyword(key: string, value: unknown, path: string, refs: readonly unknown[]): unknown {
    if (ONE.includes(key) && (isRecord(value) || typeof value === "boolean")) {
      // additionalProperties: false and true stay as written (the compiler reads them).
      if ((key === "additionalProperties" || key === "additionalItems") && typeof value === "boolean") return value;
      return this.node(value, path, refs);
    }
    if ((LIST.includes(key) || key === "items") && Array.isArray(value)) {
      const items = value.map((item, index) => this.node(item, `${path}/${index}`, refs));
      return items.every((item, index) => item === value[index]) ? value : items;
    }
    if (MAP.includes(key) && isRecord(value) && key !== "$defs" && key !== "definitions") {
      const entries = Object.entries(value).map(([name, item]) => [name, this.node(item, `${path}/${name}`, refs)] as const);
      return entries.every(([name, item]) => item === value[name]) ? value : Object.fromEntries(entries);
    }
    if (key === "dependencies" && isRecord(value)) {
      const entries = Object.entries(value).map(([name, item]) => [name, Array.isArray(item) ? item : this.node(item, `${path}/${name}`, refs)] as const);
      return entries.every(([name, item]) => item === value[name]) ? value : Object.fromEntries(entries);
    }
    return value;
  }

  /** Older and newer spellings of one meaning, in draft-07's. */
  private translate(node: SchemaNode): SchemaNode {
    let out = node;
    if (this.dialect === "draft-04") {
      for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
        if (typeof out[flag] !== "boolean") continue;
        const { [flag]: exclusive, [bound]: limit, ...rest } = out;
        out = exclusive && typeof limit === "number" ? { ...rest, [flag]: limit } : typeof limit === "number" ? { ...rest, [bound]: limit } : rest;
      }
    }
    if ((this.dialect === "2019-09" || this.dialect === "2020-12") && (isRecord(out.dependentRequired) || isRecord(out.dependentSchemas))) {
      const { dependentRequired, dependentSchemas, ...rest } = out;
      const dependencies: SchemaNode = { ...(isRecord(dependentRequired) ? dependentRequired : {}) };
      for (const [name, schema] of Object.entries(isRecord(dependentSchemas) ? dependentSchemas : {})) {
        const required = dependencies[name];
        dependencies[name] = Array.isArray(required) ? mergeSchemas({ required }, schema as SchemaNode, "/dependentSchemas") : schema;
      }
      out = { ...rest, dependencies };
    }
    if (this.dialect === "2020-12" && Array.isArray(out.prefixItems)) {
      const { prefixItems, items, ...rest } = out;
      out = { ...rest, items: prefixItems, ...(items === undefined ? {} : { additionalItems: items }) };
    }
    return out;
  }

  /**
   * Unsatisfiable parts pruned, and a union with other assertions beside it
   * distributed into its branches: A ∧ (B ∨ C) = (A ∧ B) ∨ (A ∧ C), exact
   * for oneOf too (an instance outside A matches no branch either way).
   */
  private distribute(node: SchemaNode, path: string): SchemaNode {
    const pruned = prune(node);
    // Normalized keywords are draft-07's (translate).
    if (isNothing(pruned) || ownContradiction(pruned, "draft-07", path)) return NOTHING;
    const keyword = Array.isArray(pruned.anyOf) ? "anyOf" : Array.isArray(pruned.oneOf) ? "oneOf" : null;
    if (!keyword) return pruned;
    const { [keyword]: branches, ...rest } = pruned;
    const assertions = Object.keys(rest).filter((key) => !ANNOTATIONS.has(key));
    if (assertions.length === 0) return pruned;
    const annotations = Object.fromEntries(Object.entries(rest).filter(([key]) => !assertions.includes(key)));
    const own = Object.fromEntries(assertions.map((key) => [key, rest[key]]));
    const merged = (branches as SchemaNode[]).map((branch, index) => mergeSchemas(own, branch, `${path}/${keyword}/${index}`)).filter((branch) => !isNothing(branch));
    if (merged.length === 0) return NOTHING;
    return { ...annotations, [keyword]: merged };
  }
}

/** A node with its unsatisfiable parts taken out: NOTHING when a part it needs is. */
function prune(node: SchemaNode): SchemaNode {
  let out = node;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = out[keyword];
    if (!Array.isArray(branches) || !branches.some(isNothing)) continue;
    const kept = branches.filter((branch) => !isNothing(branch));
    if (kept.length === 0) return NOTHING;
    out = { ...out, [keyword]: kept };
  }
  if (isRecord(out.properties) && Object.values(out.properties).some(isNothing)) {
    const required = Array.isArray(out.required) ? (out.required as string[]) : [];
    const properties: SchemaNode = {};
    for (const [name, schema] of Object.entries(out.properties)) {
      if (!isNothing(schema)) properties[name] = schema;
      else if (required.includes(name)) return NOTHING;
    }
    out = { ...out, properties };
  }
  if (isNothing(out.items)) {
    if (typeof out.minItems === "number" && out.minItems > 0) return NOTHING;
    out = { ...out, maxItems: 0 };
    delete out.items;
  } else if (Array.isArray(out.items) && out.items.some(isNothing)) {
    const cut = out.items.findIndex(isNothing);
    if (typeof out.minItems === "number" && out.minItems > cut) return NOTHING;
    out = { ...out, items: out.items.slice(0, cut), maxItems: Math.min(cut, typeof out.maxItems === "number" ? out.maxItems : cut) };
  }
  if (isNothing(out.additionalProperties)) out = { ...out, additionalProperties: false };
  if (isNothing(out.additionalItems)) out = { ...out, additionalItems: false };
  return out;
}
