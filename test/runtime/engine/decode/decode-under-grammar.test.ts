import { describe, expect, it } from "vitest";
import { grammarStart } from "../../../../schemas/gbnf-match/gbnf-matcher.js";
import type { DecodeEngine } from "../../../../runtime/engine/decode/decode-engine.js";
import { decodeUnderGrammar } from "../../../../runtime/engine/decode/decode-under-grammar.js";
import { advanceBytes, type ByteState } from "../../../../runtime/engine/decode/grammar-bytes.js";
import type { GenerateRequest } from "../../../../runtime/engine/model-port.js";
import { PieceIndex } from "../../../../runtime/engine/decode/piece-index.js";

/** End of generation, in the stand-in's vocabulary; every other id is one printable ASCII character. */
const EOG = 0;
const text = (tokens: readonly number[]) => String.fromCharCode(...tokens.filter((token) => token !== EOG));

/**
 * A stand-in engine: one character per token, a "model" that wants to write
 * `wants` (at each position its character first, then any other the grammar
 * allows, lowest first), and a log of every call. The grammar is applied
 * with narrowgauge's matcher.
 */
function standIn(wants: string, options: { batchSize?: number; held?: number[]; fail?: boolean; pieces?: boolean } = {}) {
  const calls: string[] = [];
  let held = [...(options.held ?? [])];
  const ids = Array.from({ length: 95 }, (_, index) => index + 32);
  const engine: DecodeEngine = {
    vocabulary: {
      tokenize: (value) => Array.from(value, (character) => character.charCodeAt(0)),
      detokenize: (tokens) => text(tokens),
      extending: () => [],
    },
    pieces: options.pieces ? PieceIndex.of(127, (id) => id < 32, (id) => [id]) : null,
    batchSize: options.batchSize ?? 512,
    held: () => held,
    eraseFrom: async (position) => {
      calls.push(`erase ${position}`);
      held = held.slice(0, position);
    },
    evaluate: async (tokens) => {
      calls.push(`evaluate ${tokens.length}`);
      held.push(...tokens);
    },
    sampler: async ({ gbnf, steer }) => {
      let state: ByteState = { position: grammarStart(gbnf), partial: null };
      let written = 0;
      const after = (token: number) => advanceBytes(state, [token]);
      const take = (token: number) => {
        const next = after(token);
        if (next) [state, written] = [next, written + 1];
        return next !== null;
      };
      return {
        grammar: { take },
        next: async (batch) => {
          if (options.fail) throw new Error("the engine fell over");
          const steered = steer?.();
          calls.push(`sample after ${batch.length}${steered ? ` steered to ${steered.length}` : ""}`);
          held.push(...batch);
          const token = [wants.charCodeAt(written), ...ids].find((candidate) => after(candidate) !== null);
          if (token === undefined) return null;
          take(token);
          return token;
        },
        close: async () => void calls.push("close"),
      };
    },
  };
  return { engine, calls, held: () => held };
}

const GBNF = 'root ::= "{\\"note\\":\\"" [a-z]{1,6} "\\"}"';
const request = (prompt: number[], extra: Partial<GenerateRequest> = {}): GenerateRequest => ({ prompt, gbnf: GBNF, maxTokens: 40, ...extra });

describe("decodeUnderGrammar: the one decode loop, on a stand-in engine", () => {
  it("writes the grammar's skeleton by jump-forward, samples the free text, and stops where the step ends, the KV cache holding all of it", async () => {
    const { engine, calls, held } = standIn('{"note":"paris"}');
    const generation = await decodeUnderGrammar(engine, request([1, 2, 3]));
    expect(generation).toMatchObject({ text: '{"note":"paris"}', stopReason: "grammar-complete", prompt: { tokens: 3, evaluated: 3 } });
    expect(generation.forcedTokens).toBe('{"note":"'.length + "}".length);
    // The opening span rides with the prompt; each sampled character is one evaluation; the closing span is evaluated with the quote before it, without a sample.
    expect(calls).toEqual([`sample after ${3 + 9}`, ...Array(5).fill("sample after 1"), "evaluate 2", "close"]);
    expect(generation.decodes).toBe(7);
    expect(text(held())).toBe(text([1, 2, 3]) + '{"note":"paris"}');
  });

  it("keeps the KV cache's common prefix with the prompt and evaluates the rest, always at least one token", async () => {
    const { engine, calls } = standIn('{"note":"a"}', { held: [1, 2, 3, 4, 5] });
    const generation = await decodeUnderGrammar(engine, request([1, 2, 9, 9]));
    expect(calls[0]).toBe("erase 2");
    expect(generation.prompt).toEqual({ tokens: 4, evaluated: 2 });
    const again = standIn('{"note":"a"}', { held: [1, 2, 3] });
    expect((await decodeUnderGrammar(again.engine, request([1, 2, 3]))).prompt.evaluated).toBe(1);
    expect(again.calls[0]).toBe("erase 2");
  });

  it("evaluates a long prompt in batches and stops between them when the signal fires, sampling nothing", async () => {
    const controller = new AbortController();
    const { engine, calls } = standIn('{"note":"a"}', { batchSize: 4 });
    const evaluate = engine.evaluate;
    engine.evaluate = async (tokens) => {
      await evaluate(tokens);
      if (calls.length === 2) controller.abort();
    };
    const generation = await decodeUnderGrammar(engine, request(Array.from({ length: 20 }, (_, index) => index + 1), { signal: controller.signal }));
    expect(generation.stopReason).toBe("aborted");
    expect(calls).toEqual(["evaluate 4", "evaluate 4"]);
    expect(generation.generatedTokens).toBe(0);
  });

  it("stops at maxTokens (a forced span never runs past it), and at none without sampling at all", async () => {
    const cut = await decodeUnderGrammar(standIn('{"note":"abcdef"}').engine, request([1], { maxTokens: 11 }));
    expect(cut).toMatchObject({ text: '{"note":"ab', stopReason: "max-tokens", generatedTokens: 11 });
    const inSpan = standIn('{"note":"abcdef"}');
    expect(await decodeUnderGrammar(inSpan.engine, request([1], { maxTokens: 5 }))).toMatchObject({ text: '{"not', stopReason: "max-tokens", generatedTokens: 5 });
    expect(inSpan.calls).toEqual(["close"]);
    const none = standIn('{"note":"a"}');
    expect(await decodeUnderGrammar(none.engine, request([1], { maxTokens: 0 }))).toMatchObject({ stopReason: "max-tokens", generatedTokens: 0 });
    expect(none.calls).toEqual([]);
  });

  it("writes the same text with one evaluation per forced token (unbatched) or none forced (off)", async () => {
    const write = (mode: "batched" | "unbatched" | "off") => decodeUnderGrammar(standIn('{"note":"nice"}').engine, request([1, 2], { jumpForward: mode }));
    const [batched, unbatched, off] = [await write("batched"), await write("unbatched"), await write("off")];
    expect(new Set([batched.text, unbatched.text, off.text])).toEqual(new Set(['{"note":"nice"}']));
    expect([batched.forcedTokens, unbatched.forcedTokens, off.forcedTokens]).toEqual([10, 10, 0]);
    // Off samples every one of the 15 characters; unbatched evaluates the same tokens one at a time, the prompt's rest apart.
    expect([batched.decodes, unbatched.decodes, off.decodes]).toEqual([6, 16, 15]);
  });

  it("steers the sampler where the grammar allows few tokens, and not in free text", async () => {
    const { engine, calls } = standIn("yesok", { pieces: true });
    await decodeUnderGrammar(engine, { ...request([1]), gbnf: 'root ::= ("yes" | "no") [a-z]{0,3}' });
    expect(calls[0]).toBe("sample after 1 steered to 2");
    expect(calls.filter((call) => call.includes("steered")).length).toBeGreaterThan(0);
    const plain = standIn("yesok", { pieces: true });
    await decodeUnderGrammar(plain.engine, { ...request([1]), gbnf: 'root ::= ("yes" | "no") [a-z]{0,3}' }, { steer: false });
    expect(plain.calls.some((call) => call.includes("steered"))).toBe(false);
  });

  it("streams whole text in order, and ends with end-of-generation where the model stops", async () => {
    const pieces: string[] = [];
    const { engine } = standIn("abc");
    const generation = await decodeUnderGrammar(engine, { ...request([1]), gbnf: 'root ::= "ab" [c]? ', onText: (piece) => pieces.push(piece) });
    expect(pieces.join("")).toBe(generation.text);
    expect(generation.stopReason).toBe("end-of-generation");
  });

  it("forgets the KV cache and rethrows when the engine fails part-way", async () => {
    const { engine, calls, held } = standIn("", { fail: true, held: [1, 2] });
    await expect(decodeUnderGrammar(engine, request([1, 2, 3]))).rejects.toThrow("the engine fell over");
    expect(calls).toContain("close");
    expect(calls.at(-1)).toBe("erase 0");
    expect(held()).toEqual([]);
  });
});
