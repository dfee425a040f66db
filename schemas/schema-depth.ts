import { UnsupportedSchemaError } from "./unsupported-schema-error.js";

/**
 * How deep a schema's JSON may nest (objects and arrays, counted alike). The
 * validator, the normalizer and the compiler read a schema recursively, and a
 * schema is input a client controls: 800 levels overflowed ajv's stack (a
 * 500 in serve). Real schemas nest a few dozen levels; a recursive one is
 * expanded by the normalizer a few levels deep, well inside this.
 */
export const MAX_SCHEMA_DEPTH = 256;

/** Throws UnsupportedSchemaError naming where a schema nests deeper than MAX_SCHEMA_DEPTH. Iterative: no depth overflows it. */
export function checkSchemaDepth(schema: unknown): void {
  const stack: Array<[unknown, number, string]> = [[schema, 0, ""]];
  while (stack.length > 0) {
    const [node, depth, path] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_SCHEMA_DEPTH) throw new UnsupportedSchemaError("$schema", path, `nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    for (const [key, value] of Object.entries(node)) {
      if (value !== null && typeof value === "object") stack.push([value, depth + 1, `${path}/${key}`]);
    }
  }
}
