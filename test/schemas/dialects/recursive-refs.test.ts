import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { compileGbnf } from "../../../schemas/gbnf-compiler.js";
import { readSchema } from "../../../schemas/read-schema.js";
import { dialectIssues, toolArgumentIssues } from "../../../schemas/validator-cache.js";
import { grammarAccepts } from "../../helpers/grammar-acceptance.js";

/** zod 4's recursive object: z.toJSONSchema writes the recursion as `$ref: "#"`. */
const Tree: z.ZodType<{ name: string; children?: unknown[] }> = z.object({
  name: z.string().max(8),
  get children() {
    return z.array(Tree).max(2).optional();
  },
});

/** A tree `depth` levels below its root, one child each. */
const tree = (depth: number, name: unknown = "n"): Record<string, unknown> => (depth === 0 ? { name } : { name: "n", children: [tree(depth - 1, name)] });

const judged = async (schema: object, value: unknown) => ({
  writable: await grammarAccepts(compileGbnf(schema), JSON.stringify(value)),
  accepted: toolArgumentIssues(readSchema(schema), schema, value).length === 0,
});

describe("recursive schemas: a reference to the root, into the root, through $defs", () => {
  it('takes zod 4\'s recursive object, whose JSON Schema refers to its root ($ref: "#"; ajv could not resolve it: "can\'t resolve reference # from id #")', async () => {
    const json = z.toJSONSchema(Tree);
    expect(JSON.stringify(json)).toContain('"$ref":"#"');
    const tool = defineTool({ name: "Outline", description: "Outline a tree.", params: Tree, run: (args) => args.name });
    expect(tool.params).toMatchObject({ type: "object" });
    // The grammar unrolls the recursion REF_DEPTH (3) levels: deeper, the optional children leave.
    expect(await judged(json, tree(2))).toEqual({ writable: true, accepted: true });
    expect((await judged(json, tree(5))).writable).toBe(false);
    // The validator reads the recursion whole, at every depth.
    expect(dialectIssues(json, tree(6))).toEqual([]);
    expect(dialectIssues(json, tree(6, 7))).not.toEqual([]);
    expect(await judged(json, { name: "n", children: [{ name: 3 }] })).toEqual({ writable: false, accepted: false });
  });

  it("takes a reference to the root from a nested place, and one into the root's own properties", async () => {
    const schema = {
      type: "object",
      properties: { label: { type: "string", maxLength: 4 }, next: { type: "object", properties: { alias: { $ref: "#/properties/label" }, again: { $ref: "#" } } } },
      required: ["label"],
    };
    expect(() => defineTool({ name: "Chain", description: "A chain.", params: schema as never, run: () => 1 })).not.toThrow();
    expect(await judged(schema, { label: "a", next: { alias: "b", again: { label: "c" } } })).toEqual({ writable: true, accepted: true });
    expect(await judged(schema, { label: "a", next: { alias: 1 } })).toEqual({ writable: false, accepted: false });
    expect(await judged(schema, { label: "a", next: { again: {} } })).toEqual({ writable: false, accepted: false });
  });

  it("takes zod 4's recursion below the root, written through $defs", async () => {
    const json = z.toJSONSchema(z.object({ tree: Tree }));
    expect(JSON.stringify(json)).toContain('"$defs"');
    expect(() => defineTool({ name: "Plant", description: "Plant a tree.", params: z.object({ tree: Tree }), run: () => 1 })).not.toThrow();
    expect(await judged(json, { tree: tree(2) })).toEqual({ writable: true, accepted: true });
    expect(await judged(json, { tree: tree(1, 9) })).toEqual({ writable: false, accepted: false });
  });

  it("keeps a schema's own $id (and draft-04's id) as the base its root reference resolves against", () => {
    const own = { $id: "https://example.com/tree.json", type: "object", properties: { name: { type: "string" }, child: { $ref: "#" } }, required: ["name"] };
    expect(dialectIssues(own, { name: "a", child: { name: "b" } })).toEqual([]);
    expect(dialectIssues(own, { name: "a", child: {} })).not.toEqual([]);
    const draft04 = { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { name: { type: "string" }, child: { $ref: "#" } }, required: ["name"] };
    expect(dialectIssues(draft04, { name: "a", child: { name: "b" } })).toEqual([]);
    expect(dialectIssues(draft04, { name: "a", child: { name: 1 } })).not.toEqual([]);
  });

  it("keeps two tools' root references apart: each validator reads its own root", () => {
    const a = { type: "object", properties: { n: { type: "integer" }, sub: { $ref: "#" } } };
    const b = { type: "object", properties: { n: { type: "string" }, sub: { $ref: "#" } } };
    expect(dialectIssues(a, { sub: { n: 1 } })).toEqual([]);
    expect(dialectIssues(b, { sub: { n: 1 } })).not.toEqual([]);
    expect(dialectIssues(b, { sub: { n: "x" } })).toEqual([]);
  });
});
