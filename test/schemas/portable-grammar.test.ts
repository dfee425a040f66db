import { readFileSync } from "node:fs";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { buildStepSchema, compileGbnf } from "../../index.js";
import { weatherTools } from "../../demos/weather-tools.js";

/**
 * Grammars are meant to be read the same by llama.cpp and by xgrammar (the
 * engine behind vLLM's and SGLang's structured outputs). They differ on one
 * escape: llama.cpp's \x takes exactly two hex digits, xgrammar's as many as
 * follow (\u takes four and \U eight in both). No bound goes past
 * U+1FFFFF, the largest value llama.cpp's UTF-8 decoder produces (a negated
 * class excludes U+110000–U+1FFFFF so that nothing beyond Unicode is
 * written; both engines parse such a bound). Checked on every grammar in the
 * compiler's snapshots; what each engine accepts is compared in
 * xgrammar-portability.test.ts.
 */
type Reading = "llama.cpp" | "xgrammar";

/** The code points of every literal and character class in a grammar, as one engine reads its escapes. */
function readTerminals(grammar: string, reading: Reading): number[][] {
  const terminals: number[][] = [];
  let index = 0;
  while (index < grammar.length) {
    const open = grammar[index];
    if (open === "#") {
      const end = grammar.indexOf("\n", index);
      index = end < 0 ? grammar.length : end;
      continue;
    }
    if (open !== '"' && open !== "[") {
      index++;
      continue;
    }
    const close = open === '"' ? '"' : "]";
    const codes: number[] = [];
    index++;
    while (index < grammar.length && grammar[index] !== close) {
      if (grammar[index] !== "\\") {
        codes.push(grammar.codePointAt(index)!);
        index += grammar.codePointAt(index)! > 0xffff ? 2 : 1;
        continue;
      }
      const kind = grammar[index + 1]!;
      const width = kind === "x" ? (reading === "llama.cpp" ? 2 : /^[0-9a-fA-F]*/.exec(grammar.slice(index + 2))![0].length) : kind === "u" ? 4 : kind === "U" ? 8 : 0;
      if (width === 0) {
        codes.push(kind.codePointAt(0)!);
        index += 2;
      } else {
        codes.push(Number.parseInt(grammar.slice(index + 2, index + 2 + width), 16));
        index += 2 + width;
      }
    }
    terminals.push(codes);
    index++;
  }
  return terminals;
}

function snapshotGrammars(): Array<[string, string]> {
  const text = readFileSync(new URL("./__snapshots__/gbnf-compiler.test.ts.snap", import.meta.url), "utf8");
  const snapshots: Record<string, string> = {};
  new Function("exports", text)(snapshots);
  return Object.entries(snapshots)
    .map(([name, value]): [string, string] => [name, value.trim().slice(1, -1)])
    .filter(([, grammar]) => grammar.includes("root ::="));
}

describe("grammars both llama.cpp and xgrammar read the same", () => {
  it("the reader tells the two apart (the old text's \\x1f0-9 is a reversed range to xgrammar)", () => {
    const old = '[^"\\\\\\x00-\\x1f0-9]';
    expect(readTerminals(old, "xgrammar")).not.toEqual(readTerminals(old, "llama.cpp"));
  });

  const grammars = [
    ...snapshotGrammars(),
    ["the demo's step grammar", compileGbnf(buildStepSchema({ tools: weatherTools }))],
    // Control characters, a quote, a backslash, a code point past the BMP and a digit after an escape, in literals and enums.
    ["literals with characters that need escapes", compileGbnf(Type.Object({ tag: Type.Literal("a\u001f0\"\\😀\u007f"), unit: Type.Union([Type.Literal("°C\t1"), Type.Literal("x\n9")]) }))],
  ] as Array<[string, string]>;
  it("finds the compiler's snapshot grammars", () => expect(grammars.length).toBeGreaterThanOrEqual(2));

  for (const [name, grammar] of grammars) {
    it(name.replace(/ 1$/, ""), () => {
      const xgrammar = readTerminals(grammar, "xgrammar");
      expect(xgrammar).toEqual(readTerminals(grammar, "llama.cpp"));
      expect(Math.max(...xgrammar.flat())).toBeLessThanOrEqual(0x1fffff);
      expect(grammar).not.toMatch(/\\x/);
    });
  }
});
