import { describe, expect, it } from "vitest";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { KEYWORD_DEFINITIONS, KEYWORD_SUPPORT } from "../../schemas/keyword-support.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";

const without = (schema: object, keyword: string) => Object.fromEntries(Object.entries(schema).filter(([key]) => key !== keyword));
/** narrowgauge's own keywords: only the grammar knows them (ajv, in non-strict mode, passes them by). */
const ownKeyword = (keyword: string) => keyword.startsWith("x-");

describe("each keyword's definition holds for the emitter beside it", () => {
  it("defines each keyword once", () => {
    const keywords = KEYWORD_DEFINITIONS.map((definition) => definition.keyword);
    expect(new Set(keywords).size).toBe(keywords.length);
    expect(Object.keys(KEYWORD_SUPPORT).sort()).toEqual([...keywords].sort());
  });

  for (const { keyword, support, example } of KEYWORD_DEFINITIONS) {
    it(`${keyword}: ${support}`, async () => {
      const gbnf = compileGbnf(example.schema);
      if (support === "grammar" || support === "grammar+post-check") {
        expect(example.unwritable, "a grammar keyword's example names a value it makes unwritable").toBeDefined();
        expect(await grammarAccepts(gbnf, JSON.stringify(example.unwritable)), `the grammar must not write ${JSON.stringify(example.unwritable)}`).toBe(false);
        if (!ownKeyword(keyword)) expect(validateAgainst(example.schema, example.unwritable)).not.toEqual([]);
      }
      if (support === "post-check" || support === "grammar+post-check") {
        expect(example.checked, "a post-check keyword's example names a value only ajv refuses").toBeDefined();
        expect(await grammarAccepts(gbnf, JSON.stringify(example.checked)), `the grammar writes ${JSON.stringify(example.checked)}; ajv refuses it`).toBe(true);
        expect(validateAgainst(example.schema, example.checked)).not.toEqual([]);
      }
      if (support === "post-check" || support === "annotation") {
        // The emitter does not read the keyword at all.
        expect(gbnf).toBe(compileGbnf(without(example.schema, keyword)));
      }
    });
  }

  it("catches a table that claims too much (the check itself works)", async () => {
    // maximum is not in the grammar: were it marked "grammar", its example value would be writable.
    const gbnf = compileGbnf({ type: "number", maximum: 10 });
    expect(await grammarAccepts(gbnf, "11")).toBe(true);
  });
});
