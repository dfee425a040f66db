import type { HistoryItem } from "../../base/chat-history.js";
import fc from "fast-check";
import { ChatMLChatWrapper, JinjaTemplateChatWrapper, Llama3_1ChatWrapper, Llama3ChatWrapper, type ChatWrapper } from "node-llama-cpp";
import { afterAll, describe, expect, it } from "vitest";
import { CITIES, WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { llamaModelPort, type LlamaModelPort } from "../../runtime/backends/llama/load-model.js";
import type { GenerateRequest } from "../../runtime/engine/model-port.js";
import { openModel } from "../../runtime/backends/llama/open-model.js";
import { renderHistory } from "../../runtime/history/render-history.js";
import { runAgent } from "../../runtime/loop/run-agent.js";
import type { RunResult } from "../../runtime/loop/run-types.js";
import { tokenizerFiles } from "../../bench/forge/real-tokenizers.js";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";
import { hasLlama2Fixture, LLAMA2_FIXTURE } from "../helpers/fixture.js";
import { expectGuardInvariants, recordingSteps, rewritableTail } from "../helpers/guard-invariants.js";
import { testLlama } from "../helpers/llama.js";
import { atTier } from "../tier.js";

const TASKS = [WEATHER_TASK, "Convert 20 C to F.", "What is 12 times 7?", "Is it raining in Londres?", "Weather in NYC in Fahrenheit?"];
const NUMBERS = [18, 20, 24, 25, 0, 7, 12, 77, 64.4, -3];

/** One random move of an adversarial scripted model, resolved against what the turn allows. */
const move = fc.oneof(
  fc.record({ kind: fc.constant("visible-tool" as const), pick: fc.nat(), city: fc.constantFrom(...CITIES, "Londres"), a: fc.constantFrom(...NUMBERS), b: fc.constantFrom(...NUMBERS) }),
  fc.record({ kind: fc.constant("any-tool" as const), pick: fc.nat(), city: fc.constantFrom(...CITIES), a: fc.constantFrom(...NUMBERS), b: fc.constantFrom(...NUMBERS) }),
  fc.record({ kind: fc.constant("final" as const), answer: fc.oneof(fc.constant("Paris 18°C, New York 24°C."), fc.constant("It is 25 degrees."), fc.string({ minLength: 1, maxLength: 20 })) }),
  fc.constant({ kind: "garbage" as const }),
  fc.constant({ kind: "truncated" as const }),
);
type Move = typeof move extends fc.Arbitrary<infer T> ? T : never;

function output(chosen: Move, request: GenerateRequest): Record<string, unknown> | string {
  switch (chosen.kind) {
    case "garbage":
      return "{not a step";
    case "truncated":
      return '{"thought":"aaaa';
    case "final":
      return { thought: "done", call: { tool: "FinalAnswer", answer: chosen.answer } };
    default: {
      const visible = request.purpose?.kind === "step" ? request.purpose.visible.tools : [];
      const names = chosen.kind === "visible-tool" && visible.length > 0 ? visible : weatherTools.map((tool) => tool.name);
      const name = names[chosen.pick % names.length]!;
      const args = name === "CityWeather" ? { city: chosen.city } : name === "Calculator" ? { a: chosen.a, op: "*", b: chosen.b } : { value: chosen.a, from: "C", to: "F" };
      return { thought: "", call: { tool: name, args } };
    }
  }
}

/** Renders a history as the loop does (ending at the model's turn) with a port's wrapper and tokenizer. */
const renderWith = (port: Pick<LlamaModelPort, "chatRenderer" | "tokenize">) => (history: HistoryItem[]) => renderHistory(port, history);

describe("guard invariants under random scripted behaviour (property)", () => {
  it("hold for every run with the full profile", async () => {
    const opener = rewritableTail(renderWith(scriptedModel([])));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TASKS), fc.array(move, { minLength: 8, maxLength: 8 }), fc.integer({ min: 2, max: 8 }), async (task, moves, maxTurns) => {
        const model = scriptedModel(moves.map((chosen) => (request: GenerateRequest) => output(chosen, request)));
        const result = await runAgent({ model, tools: weatherTools, task, profile: "sub1b", maxTurns });
        expectGuardInvariants(result, { maxTurns, prompts: model.requests.map((request) => request.prompt), openerLength: opener });
      }),
      { numRuns: atTier(60, 300) },
    );
  });
});

/** What the guards decided and the loop did, turn by turn: everything but how the step was written and shown. */
const decisions = (result: RunResult) => ({
  reason: result.reason,
  answer: result.status === "answered" ? result.answer : null,
  turns: result.turns.map((turn) => ({ visible: turn.visible, guards: turn.guards, check: turn.check, step: turn.step, tool: turn.tool, failure: turn.failure?.code ?? null })),
});

/** One chat format per codec: ChatML (json-v1, and json when asked), Llama 3 (json), Qwen3's template and Llama 3.1 (native). */
/**
 * Qwen3's template writes an empty think block into the assistant turns after the last user message and drops it
 * once another user message follows: text from the last user message on may be rendered anew (scripted tokens are code points).
 */
const sinceLastUserMessage = (prompt: readonly number[]) => String.fromCodePoint(...prompt).search(/<\|im_start\|>user\n(?!<tool_response>)(?![\s\S]*<\|im_start\|>user\n(?!<tool_response>))/);

const CODECS: Array<{ name: string; chatWrapper: () => ChatWrapper; codec?: "json"; rewritableFrom?: (prompt: readonly number[]) => number }> = [
  { name: "json-v1 on ChatML", chatWrapper: () => new ChatMLChatWrapper() },
  { name: "json on ChatML", chatWrapper: () => new ChatMLChatWrapper(), codec: "json" },
  { name: "json on Llama 3", chatWrapper: () => new Llama3ChatWrapper() },
  { name: "native on Qwen3's template", chatWrapper: () => new JinjaTemplateChatWrapper({ template: String(tokenizerFiles("qwen3").config.chat_template) }), rewritableFrom: sinceLastUserMessage },
  { name: "native on Llama 3.1", chatWrapper: () => new Llama3_1ChatWrapper() },
];

describe("guards under every codec (property)", () => {
  it("make the same decisions on the same logical steps, whichever way the steps are written and shown", async () => {
    const wrappers = CODECS.map((entry) => ({ ...entry, wrapper: entry.chatWrapper() }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TASKS), fc.array(move, { minLength: 8, maxLength: 8 }), fc.integer({ min: 2, max: 8 }), async (task, moves, maxTurns) => {
        const runs = await Promise.all(
          wrappers.map(async ({ wrapper, codec, rewritableFrom }) => {
            const model = scriptedModel(moves.map((chosen) => (request: GenerateRequest) => output(chosen, request)), { chatWrapper: wrapper });
            const result = await runAgent({ model, tools: weatherTools, task, profile: "sub1b", maxTurns, codec });
            expectGuardInvariants(result, { maxTurns, prompts: model.requests.map((request) => request.prompt), openerLength: rewritableTail(renderWith(model)), rewritableFrom });
            return result;
          }),
        );
        expect(runs.map((run) => run.codec)).toEqual(["json-v1", "json", "json", "native", "native"]);
        for (const run of runs.slice(1)) expect(decisions(run)).toEqual(decisions(runs[0]!));
      }),
      { numRuns: atTier(25, 120) },
    );
  });
});

describe("guard invariants on random-weight models (property)", () => {
  const ports: LlamaModelPort[] = [];
  afterAll(async () => {
    for (const port of ports) await port.dispose();
  });

  async function runOn(port: LlamaModelPort, task: string, maxTurns: number, sampling: { temperature?: number; seed?: number }) {
    const prompts: Array<readonly number[]> = [];
    const recording = recordingSteps(port, prompts);
    const result = await runAgent({ model: recording, tools: weatherTools, task, profile: "sub1b", maxTurns, sampling, thoughtMaxLength: 48, answerMaxLength: 64 });
    const opener = rewritableTail(renderWith(port));
    expectGuardInvariants(result, { maxTurns, prompts, openerLength: opener });
    expect(prompts.length).toBe(result.turns.length);
    return result;
  }

  it("hold on the built-in tiny model across weight seeds and tasks", async () => {
    const llama = await testLlama();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(...TASKS), async (seed, task) => {
        const port = llamaModelPort(await openModel({ source: { tiny: seed }, llama }));
        try {
          await runOn(port, task, 5, {});
        } finally {
          await port.dispose();
        }
      }),
      { numRuns: atTier(4, 16) },
    );
  });

  it.skipIf(!hasLlama2Fixture)("hold on the Llama-2 fixture across sampling seeds", async () => {
    const port = llamaModelPort(await openModel({ source: LLAMA2_FIXTURE, llama: await testLlama() }));
    ports.push(port);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(...TASKS), async (seed, task) => {
        await runOn(port, task, 4, { temperature: 1, seed });
      }),
      { numRuns: atTier(2, 6) },
    );
  });

  it("make 'Londres' come out as London on every tiny-model seed (G1: the alias narrows the domain to one city)", async () => {
    const llama = await testLlama();
    let calls = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const port = llamaModelPort(await openModel({ source: { tiny: seed }, llama }));
      try {
        const result = await runAgent({ model: port, tools: weatherTools, task: "Is it raining in Londres?", profile: "sub1b", maxTurns: 2, thoughtMaxLength: 32, answerMaxLength: 32 });
        const call = result.turns[0]!.step?.call;
        if (call) {
          calls++;
          expect(call).toEqual({ tool: "CityWeather", args: { city: "London" } });
        }
      } finally {
        await port.dispose();
      }
    }
    // Turn 1 offers CityWeather alone; an unusable output is the only way not to call it.
    expect(calls).toBeGreaterThanOrEqual(3);
  });
});
