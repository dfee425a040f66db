import { LlamaGrammarEvaluationState, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../../../demos/weather-tools.js";
import { forgedModelFile, type RealTokenizer } from "../../../../bench/forge/real-tokenizers.js";
import { llamaModelPort, type LlamaModelPort } from "../../../../runtime/backends/llama/load-model.js";
import { openModel, type OpenedModel } from "../../../../runtime/backends/llama/open-model.js";
import { JumpForward } from "../../../../runtime/engine/decode/jump-forward.js";
import { grammarTaker, llamaVocabulary } from "../../../../runtime/backends/llama/llama-engine.js";
import { grammarStateAccess } from "../../../../runtime/backends/llama/grammar-state-access.js";
import { grammarStart } from "../../../../schemas/gbnf-match/gbnf-matcher.js";
import { runAgent } from "../../../../runtime/loop/run-agent.js";
import type { JumpForwardMode } from "../../../../runtime/engine/model-port.js";
import type { RunResult } from "../../../../runtime/loop/run-types.js";
import { hasTrainedFixture, TRAINED_FIXTURE } from "../../../helpers/fixture.js";
import { testLlama } from "../../../helpers/llama.js";

const run = (model: LlamaModelPort, jumpForward: JumpForwardMode, task = WEATHER_TASK) =>
  runAgent({ model, tools: weatherTools, task, maxTurns: 4, thoughtMaxLength: 40, answerMaxLength: 120, sampling: { temperature: 0 }, jumpForward });

/** What a run decided and wrote, turn by turn: equal runs are equal here. */
const transcript = (result: RunResult) => ({
  reason: result.reason,
  answer: "answer" in result ? result.answer : null,
  turns: result.turns.map((turn) => ({ raw: turn.raw, guards: turn.guards, check: turn.check, tokens: turn.generatedTokens })),
});
const total = (result: RunResult, field: "evaluations" | "forcedTokens") => result.turns.reduce((sum, turn) => sum + turn.decoding[field], 0);
const generated = (result: RunResult) => result.turns.reduce((sum, turn) => sum + turn.generatedTokens, 0);

describe.each(["qwen3", "llama3_1"] as RealTokenizer[])("jump-forward on a model forged around the real %s tokenizer", (name) => {
  let opened: OpenedModel;
  let port: LlamaModelPort;
  beforeAll(async () => {
    opened = await openModel({ source: await forgedModelFile(name), llama: await testLlama(), sequences: 1 });
    port = llamaModelPort(opened);
  }, 120_000);
  afterAll(async () => port?.dispose());

  it("writes forced spans in one evaluation each, and the run is the one written token by token (greedy)", async () => {
    for (const task of [WEATHER_TASK, "How warm is Tokyo in Fahrenheit?"]) {
      const batched = await run(port, "batched", task);
      const unbatched = await run(port, "unbatched", task);
      expect(transcript(batched)).toEqual(transcript(unbatched));
      expect(total(batched, "forcedTokens")).toBeGreaterThan(0);
      expect(total(batched, "forcedTokens")).toBe(total(unbatched, "forcedTokens"));
      expect(total(batched, "evaluations")).toBeLessThan(total(unbatched, "evaluations"));
      expect(total(batched, "evaluations")).toBeLessThan(generated(batched));
    }
  }, 240_000);

  it("leaves a span's last token to the model, so a vocabulary token that spans the boundary stays writable", async () => {
    const model = opened.model;
    const grammar = await opened.llama.createGrammar({ grammar: 'root ::= "{\\"thought\\":\\"" [ -!#-~]{1,12} "\\"}"' });
    const state = new LlamaGrammarEvaluationState({ model, grammar });
    const span = JumpForward.create(llamaVocabulary(model), grammar.grammar)!.next(grammarTaker(model, state)!, [], 100)!;
    const forced = '{"thought":"';
    expect(forced.startsWith(span.text) && span.text.length < forced.length).toBe(true);
    expect(span.ends).toBe(false);
    // Tokens that start where the span stopped and run past the forced text into the free part.
    const rest = forced.slice(span.text.length);
    const spanning: Token[] = [];
    const vocabulary = (model.fileInfo.metadata.tokenizer?.ggml?.tokens as readonly string[]).length;
    for (let id = 0; id < vocabulary; id++) {
      const text = model.detokenize([id as Token]);
      if (text.length > rest.length && text.startsWith(rest) && grammarStart(grammar.grammar).advance(span.text + text) !== null) spanning.push(id as Token);
    }
    expect(spanning.length, "the vocabulary has tokens across the boundary").toBeGreaterThan(0);
    for (const token of spanning.slice(0, 20)) {
      const probe = state.clone();
      expect(model.detokenize([token]).startsWith(rest)).toBe(true);
      // llama.cpp's own grammar takes each of them next: nothing forced made them unwritable.
      expect(grammarStateAccess(model)!.canAccept(probe, token)).toBe(true);
    }
  }, 120_000);

  it("takes a span whole where no vocabulary token runs past its end into what the grammar allows next (a choice of names)", async () => {
    const gbnf = 'root ::= "{\\"tool\\":\\"" ("Qq" | "Zz") "\\"}"';
    const grammar = await opened.llama.createGrammar({ grammar: gbnf });
    const state = new LlamaGrammarEvaluationState({ model: opened.model, grammar });
    const span = JumpForward.create(llamaVocabulary(opened.model), gbnf)!.next(grammarTaker(opened.model, state)!, [], 100)!;
    expect(span.text).toBe('{"tool":"');
    expect(span.ends).toBe(false);
    // What llama.cpp's grammar state took is the whole span: both names can begin next, nothing else.
    const [q, z, quote] = ["Qq", "Zz", '"'].map((text) => opened.model.tokenize(text, false)[0]!);
    expect([q, z, quote].map((token) => grammarStateAccess(opened.model)!.canAccept(state.clone(), token!))).toEqual([true, true, false]);
  }, 120_000);
});

describe.skipIf(!hasTrainedFixture)("jump-forward on the trained fixture", () => {
  let port: LlamaModelPort;
  beforeAll(async () => {
    port = llamaModelPort(await openModel({ source: TRAINED_FIXTURE, llama: await testLlama(), sequences: 1 }));
  }, 120_000);
  afterAll(async () => port?.dispose());

  it("changes nothing it writes (greedy: the same steps, decisions and answer as sampling every token) and evaluates fewer times", async () => {
    const batched = await run(port, "batched");
    const plain = await run(port, "off");
    expect(transcript(batched)).toEqual(transcript(plain));
    expect(batched.status).toBe("answered");
    expect(total(plain, "forcedTokens")).toBe(0);
    expect(total(batched, "evaluations")).toBeLessThan(total(plain, "evaluations"));
  }, 120_000);
});
