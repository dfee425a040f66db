import { readToolParams } from "../../runtime/tools/check-tool-definition.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { schemaKey } from "../../schemas/schema-key.js";
import { toolArgumentIssues, validateAgainst } from "../../schemas/validator-cache.js";
import type { JudgeEngine } from "./judge-schema.js";

/** Each schema's normalized form, as the tool engine read it (the post-check needs it beside the schema as written). */
const normalized = new Map<string, object>();

/**
 * What judges a schema: the compile/post-check seam, in one place. The
 * judge runs in worker threads (judge-pool.ts), which cannot receive
 * functions, so run-maskbench.ts chooses an engine here by name.
 */
export const ENGINES = {
  /** As a tool's params are read (defineTool, a run): readToolParams (normalized, compiled, oneOf checked, its dialect's validator), then the arguments judged as a run judges them. */
  tool: {
    compile: (schema) => {
      const read = readToolParams(schema);
      normalized.set(schemaKey(schema), read);
      return cachedGbnf(read);
    },
    postCheck: (schema, value) => toolArgumentIssues(normalized.get(schemaKey(schema)) ?? schema, schema, value),
  },
  /** What a direct compileGbnf caller gets: compileGbnf (which reads the schema as the tool engine does: readSchema), then validateAgainst (draft-07 ajv) on the schema as written. */
  "compile-gbnf": {
    compile: (schema) => compileGbnf(schema),
    postCheck: (schema, value) => validateAgainst(schema, value),
  },
} satisfies Record<string, JudgeEngine>;

export type EngineName = keyof typeof ENGINES;

export const ENGINE_NAMES = Object.keys(ENGINES) as EngineName[];
