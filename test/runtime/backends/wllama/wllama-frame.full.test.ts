import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { forgedTemplateModel } from "../../../../bench/forge/template-models.js";
import { generateOnWllama, type WllamaEngine } from "../../../../runtime/backends/wllama/wllama-generate.js";
import type { JumpForwardMode } from "../../../../runtime/engine/model-port.js";
import { readGgufLayout } from "../../../../runtime/gguf/gguf-reader.js";
import { ggufVocabulary, type GgufVocabulary } from "../../../../runtime/gguf/vocab/gguf-vocabulary.js";

/**
 * The page's sampler with a call frame that holds control tokens, on the
 * vocabulary of a model forged around Phi-4-mini's template (Qwen3's
 * tokenizer, `<|tool_call|>` and `<|/tool_call|>` control tokens). The
 * stand-in engine prefers the frame's tokens everywhere, then `<`, then the
 * rest in id order: where the frame lets its token through it is written as
 * that token, and nowhere else.
 */
describe("generation on wllama with a call frame's control tokens", () => {
  let vocabulary: GgufVocabulary;
  let open: number;
  let close: number;
  beforeAll(async () => {
    vocabulary = ggufVocabulary(readGgufLayout(new Uint8Array(await readFile(await forgedTemplateModel("llama-cpp-microsoft-Phi-4-mini-instruct")))));
    open = vocabulary.data.idOf.get("<|tool_call|>")!;
    close = vocabulary.data.idOf.get("<|/tool_call|>")!;
  }, 120_000);

  function engine(): WllamaEngine {
    const size = vocabulary.data.texts.length;
    const lt = vocabulary.data.idOf.get("<")!;
    const ranked = [open, close, lt, ...Array.from({ length: size }, (_, token) => token).filter((token) => token !== open && token !== close && token !== lt)];
    const logits = ranked.map((token, rank) => ({ token, p: 1 / (rank + 2) }));
    return {
      decode: async () => ({ nPast: 0 }),
      getLogits: async (k = 40) => (k < 0 ? logits : logits.slice(0, k)),
      samplingSample: async () => ({ token: open, piece: new Uint8Array() }),
      kvRemove: async () => undefined,
      isTokenEOG: (token: number) => vocabulary.data.eog.has(token),
    } as unknown as WllamaEngine;
  }

  const GBNF = 'root ::= [a-z]{1,3} "<|tool_call|>{}<|/tool_call|>"';
  const generate = (frameTokens: string[], jumpForward: JumpForwardMode) =>
    generateOnWllama({ engine: engine(), vocabulary, batchSize: 512, cached: [] }, { prompt: [1, 2], gbnf: GBNF, maxTokens: 40, frameTokens, jumpForward });

  it.each(["off", "batched"] as const)("writes the frame as its control tokens, sampled or forced (jump-forward %s)", async (mode) => {
    const result = await generate(["<|tool_call|>", "<|/tool_call|>"], mode);
    // Unbatched, the model itself ends the step once the grammar is complete.
    expect(["grammar-complete", "end-of-generation"]).toContain(result.stopReason);
    expect(result.text).toMatch(/^[a-z]{1,3}<\|tool_call\|>\{\}<\|\/tool_call\|>$/);
    expect(result.tokens!.filter((token) => token === open || token === close)).toEqual([open, close]);
  });

  it("writes it as characters where the step names no frame tokens: every control token stays banned", async () => {
    const result = await generate([], "off");
    expect(result.text).toMatch(/^[a-z]{1,3}<\|tool_call\|>\{\}<\|\/tool_call\|>$/);
    expect(result.tokens!.some((token) => vocabulary.data.unwritable.has(token))).toBe(false);
  });
});
