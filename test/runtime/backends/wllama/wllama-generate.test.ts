import { readFile } from "node:fs/promises";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { grammarStart } from "../../../../schemas/gbnf-match/gbnf-matcher.js";
import { readGgufLayout } from "../../../../runtime/gguf/gguf-reader.js";
import { SeededRandom } from "../../../../runtime/gguf/seeded-random.js";
import { tinyModelFile } from "../../../../runtime/gguf/forge/tiny-model-file.js";
import { ggufVocabulary, type GgufVocabulary } from "../../../../runtime/gguf/vocab/gguf-vocabulary.js";
import { generateOnWllama, type WllamaEngine, type WllamaSequence } from "../../../../runtime/backends/wllama/wllama-generate.js";
import type { PromptProgress } from "../../../../runtime/backends/wllama/prompt-progress.js";
import type { GenerateRequest } from "../../../../runtime/engine/model-port.js";

/** A stand-in for wllama: seeded random logits per evaluated position, and a record of what it was asked. */
function fakeEngine(vocabulary: GgufVocabulary, seed: number) {
  const size = vocabulary.data.texts.length;
  const calls: string[] = [];
  let position = 0;
  const logits = () => {
    const random = new SeededRandom((seed * 7919 + position) >>> 0);
    const p = Array.from({ length: size }, (_, token) => ({ token, p: random.next() }));
    return p.sort((a, b) => b.p - a.p);
  };
  const engine: WllamaEngine = {
    decode: async (tokens) => {
      calls.push(`decode ${tokens.length}`);
      position += tokens.length;
      return { nPast: position };
    },
    getLogits: async (k = 40) => (calls.push(`logits ${k}`), k < 0 ? logits() : logits().slice(0, k)),
    samplingSample: async () => (calls.push("sample"), { token: logits()[0]!.token, piece: new Uint8Array() }),
    kvRemove: async (keep) => {
      calls.push(`kvRemove ${keep}`);
      position = keep;
    },
    isTokenEOG: (token) => vocabulary.data.eog.has(token),
  } as WllamaEngine;
  return { engine, calls };
}

const GBNF = 'root ::= "{\\"note\\":\\"" [a-z °]{0,24} "\\",\\"n\\":" [0-9]{1,3} "}"';
const request = (prompt: number[], extra: Partial<GenerateRequest> = {}): GenerateRequest => ({ prompt, gbnf: GBNF, maxTokens: 80, ...extra });

describe("generation on wllama, with a stand-in engine (what the page runs)", () => {
  let vocabulary: GgufVocabulary;
  beforeAll(async () => {
    vocabulary = ggufVocabulary(readGgufLayout(new Uint8Array(await readFile(await tinyModelFile()))));
  });
  const sequence = (engine: WllamaEngine, batchSize = 512): WllamaSequence => ({ engine, vocabulary, batchSize, cached: [] });

  it("writes only text the grammar accepts, whatever the model prefers, and says why it stopped", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(0, 0.8), async (seed, temperature) => {
        const { engine } = fakeEngine(vocabulary, seed);
        const result = await generateOnWllama(sequence(engine), request([1, 5, 9], { sampling: { temperature, seed } }));
        expect(["grammar-complete", "max-tokens"]).toContain(result.stopReason);
        expect(grammarStart(GBNF).advance(result.text)).not.toBeNull();
        if (result.stopReason === "grammar-complete") expect(grammarStart(GBNF).advance(result.text)!.complete).toBe(true);
        expect(result.generatedTokens).toBe(result.tokens!.length);
        expect(result.forcedTokens).toBeGreaterThan(0);
      }),
      { numRuns: 40, seed: 3 },
    );
  });

  it("keeps the KV cache's common prefix and evaluates only the rest", async () => {
    const { engine, calls } = fakeEngine(vocabulary, 1);
    const held = sequence(engine);
    const first = await generateOnWllama(held, request([1, 5, 9, 12]));
    const cached = [...held.cached];
    calls.length = 0;
    const second = await generateOnWllama(held, request([...cached.slice(0, 6), 20, 21]));
    expect(first.prompt.evaluated).toBe(4);
    expect(second.prompt.evaluated).toBe(2);
    expect(calls[0]).toBe(`kvRemove 6`);
  });

  it("stops within one batch of a long prompt when the signal fires, and writes nothing", async () => {
    const { engine, calls } = fakeEngine(vocabulary, 2);
    const controller = new AbortController();
    const slow: WllamaEngine = { ...engine, decode: async (tokens, options) => (controller.abort(), engine.decode(tokens, options)) };
    const result = await generateOnWllama(sequence(slow, 64), request(Array.from({ length: 1000 }, (_, i) => 5 + (i % 300)), { signal: controller.signal }));
    expect(result.stopReason).toBe("aborted");
    expect(result.text).toBe("");
    expect(calls.filter((call) => call.startsWith("decode"))).toEqual(["decode 64"]);
  });

  it("says how far it has read a long prompt, batch by batch, and counts only what the KV cache did not hold", async () => {
    const { engine } = fakeEngine(vocabulary, 7);
    const reports: PromptProgress[] = [];
    const held: WllamaSequence = { ...sequence(engine, 64), onPrompt: (progress) => reports.push(progress) };
    const prompt = Array.from({ length: 150 }, (_, i) => 5 + (i % 300));
    await generateOnWllama(held, request(prompt));
    // Two whole batches, then the rest with the first sample; nothing more once the prompt is read.
    expect(reports).toEqual([0, 64, 128, 150].map((evaluated) => ({ tokens: 150, reused: 0, evaluated })));
    reports.length = 0;
    await generateOnWllama(held, request([...prompt.slice(0, 100), 7, 8]));
    expect(reports).toEqual([{ tokens: 2, reused: 100, evaluated: 0 }, { tokens: 2, reused: 100, evaluated: 2 }]);
  });

  it("never writes more than maxTokens", async () => {
    const { engine } = fakeEngine(vocabulary, 4);
    const result = await generateOnWllama(sequence(engine), request([1, 2], { maxTokens: 5 }));
    expect(result.generatedTokens).toBeLessThanOrEqual(5);
    expect(result.stopReason).toBe("max-tokens");
  });

  it("under greedy sampling asks the engine's own pick first and fetches candidates only when the grammar rejects it", async () => {
    const { engine, calls } = fakeEngine(vocabulary, 5);
    const greedy = await generateOnWllama(sequence(engine), request([1, 2, 3]));
    const { engine: again } = fakeEngine(vocabulary, 5);
    const viaCandidates = await generateOnWllama(sequence({ ...again, samplingSample: async () => ({ token: -1, piece: new Uint8Array() }) }), request([1, 2, 3]));
    expect(greedy.text).toBe(viaCandidates.text);
    expect(calls.filter((call) => call === "sample").length).toBeGreaterThan(0);
  });

  it("forgets the KV cache when wllama fails part-way, so the next prompt is evaluated whole", async () => {
    const { engine, calls } = fakeEngine(vocabulary, 6);
    let fail = false;
    const held = sequence({ ...engine, decode: async (tokens, options) => (fail ? Promise.reject(new Error("kv_cache_full")) : engine.decode(tokens, options)) } as WllamaEngine);
    await generateOnWllama(held, request([1, 5, 9]));
    fail = true;
    await expect(generateOnWllama(held, request([...held.cached, 7]))).rejects.toThrow("kv_cache_full");
    expect(held.cached).toEqual([]);
    expect(calls.at(-1)).toBe("kvRemove 0");
    fail = false;
    expect((await generateOnWllama(held, request([1, 5, 9, 7]))).prompt.evaluated).toBe(4);
  });
});
