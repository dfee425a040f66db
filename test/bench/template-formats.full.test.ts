import { describe, expect, it } from "vitest";
import { measureTemplate } from "../../bench/forge/template-formats.js";

/**
 * The demo task on models forged around real chat templates (issue 34's
 * measure, npm run bench:codecs prints it for the whole corpus): where the
 * template's call syntax is one narrowgauge writes, the step is written in it
 * (with the thought where the template keeps text beside a call; Phi-4-mini's
 * frame holds control tokens, written as tokens), and every call step
 * appears in the next prompt exactly as the model generated it: the same
 * text, and (evaluated ÷ appended on the turns that extend the last prompt)
 * the same tokens.
 * Gemma 2 and Mistral Nemo refuse two user messages in a row: their runs end
 * without a template error. Gemma 4 and DeepSeek-R1 close an empty thought
 * in the generation prompt that an answered turn does not show: it is left
 * out of the prompt, so their first steps extend it too.
 */
const EXPECTED: Array<[template: string, codec: string, thought: boolean]> = [
  ["Qwen-Qwen3-0.6B", "native", true],
  // Its random runs write empty thoughts: each step's call starts a new chunk, or two would show as one parallel call.
  ["NVIDIA-Nemotron-Nano-v2", "native", true],
  ["NousResearch-Hermes-3-Llama-3.1-8B-tool_use", "native", false],
  ["meta-llama-Llama-3.2-3B-Instruct", "native", false],
  ["meetkai-functionary-medium-v3.2", "native", true],
  ["llama-cpp-microsoft-Phi-4-mini-instruct", "native", true],
  ["google-gemma-2-2b-it", "json", true],
  // Its system text moves once a call follows (shown only while the last message is the user's): native all the same.
  ["mistralai-Mistral-Nemo-Instruct-2407", "native", false],
  // Its frame numbers each call ([CALL_ID]000000001): the grammar writes the call's number.
  ["Mistral-Small-3.2-24B-Instruct-2506", "native", false],
  // Its arguments in Python's keyword syntax (`CityWeather(city='Paris')`).
  ["LFM2.5-8B-A1B", "native", true],
  // Their templates render no calls: the family's own call list is written into the content (content-calls.ts).
  ["LFM2-8B-A1B", "native", true],
  ["LFM2.5-Instruct", "native", true],
  // Its own argument syntax (`{city:<|"|>Paris<|"|>}`, <|"|> a control token), the thought in its thought channel.
  ["google-gemma-4-31B-it", "native", true],
  // Its first call opens the call list, later ones a call alone (the prompt leaves out what such a call drops); the text beside a call goes after it.
  ["deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", "native", false],
  // The same family's template as published with the model: it shows a call only where the content is none, and closes the call list
  // only after a later call; no one frame writes both, so its steps are JSON (and the run's codecFallback says why).
  ["deepseek-ai-DeepSeek-R1-Distill-Llama-8B", "json", true],
];


describe.each(EXPECTED)("the demo task on a model forged around the %s template", (template, codec, thought) => {
  it(`writes ${codec} steps ${thought ? "with" : "without"} a thought, each shown next turn as generated`, async () => {
    const row = await measureTemplate(template, { runs: 2, maxTurns: 5 });
    expect({ codec: row.codec, thought: row.thought }).toEqual({ codec, thought });
    expect(row.statuses.filter((status) => status.startsWith("failed"))).toEqual([]);
    expect(row.steps).toBeGreaterThan(0);
    expect(row.rendered).toBe(row.steps);
    if (row.appended > 0) expect(row.evaluated / row.appended).toBeLessThanOrEqual(1.05);
  });
});
