/**
 * What preparing a turn's prompt costs as the conversation grows: the same
 * step (a call and its result) appended to a conversation of about 1k
 * tokens and to one of about 7k, on models forged around corpus templates
 * (their real tokenizers), timed side by side in one process, interleaved:
 *
 * - render whole: the chat wrapper's rendering of the whole history
 *   (node-llama-cpp's Jinja wrapper, or narrowgauge's template wrapper), what
 *   every turn did before incremental-render.ts;
 * - render: what a turn does now (renderContext): the history rendered as
 *   what it adds to the last turn's prompt, where the checks allow;
 * - tokenize whole: tokenizing the whole rendered prompt (what every turn did
 *   before the held tokens were spliced);
 * - next prompt: what a turn does now (nextPrompt): the held tokens, and only
 *   the text after them tokenized.
 *
 * Each repeat renders a history whole, then 4 turns as a run renders them
 * (the first makes a window, which later turns cut), then times the next 6
 * (their mean): the turns of a run at that length, its window made.
 * Ratios are 7k ÷ 1k of the medians; "now" is render + next prompt, "whole"
 * render whole + tokenize whole.
 *
 *   npm run bench:turn-render [-- --templates A,B --repeats 15 --small 1000]
 *
 * (`--small`: the smaller conversation's tokens; 3000 shows the cost once a
 * conversation is longer than a window.)
 */
import { parseArgs } from "node:util";
import type { LlamaText } from "node-llama-cpp";
import type { HistoryItem } from "../../base/chat-history.js";
import { weatherTools } from "../../demos/weather-tools.js";
import { loadModel } from "../../runtime/backends/llama/load-model.js";
import { documentedFunctions } from "../../runtime/history/documented-functions.js";
import { nextPrompt } from "../../runtime/history/held-prompt.js";
import { appendItems, callItem, initialHistory } from "../../runtime/history/history-items.js";
import { renderContext } from "../../runtime/history/render-history.js";
import { forgedTemplateModel } from "./template-models.js";

const { values } = parseArgs({ options: { templates: { type: "string" }, repeats: { type: "string", default: "15" }, small: { type: "string", default: "1000" } } });
const templates = values.templates?.split(",") ?? ["Qwen-Qwen3-0.6B", "NousResearch-Hermes-3-Llama-3.1-8B-tool_use", "meta-llama-Llama-3.2-3B-Instruct", "llama-cpp-microsoft-Phi-4-mini-instruct"];
const repeats = Number(values.repeats);
const TURNS = 6;
/** Turns rendered, untimed, after the whole history and before the timed ones: a run at that length has its window. */
const WARM = 4;

// Numbered as a run numbers its calls (a template that gives calls ids shows the same id for a call on every turn).
// A run holds each call once: the same objects turn after turn (as runAgent's history does).
const steps: HistoryItem[] = [];
const step = (index: number) => (steps[index] ??= newStep(index));
const newStep = (index: number) => callItem(`Look up the weather once more, ${index}.`, "CityWeather", { city: "Paris" }, { city: "Paris", temperatureC: 18, conditions: "cloudy with rain later in the evening", humidity: 60 }, index + 1);
function history(calls: number): HistoryItem[] {
  const items = initialHistory("You are a careful assistant that answers by calling tools.", "What is the weather in Paris, and what is it in °F?");
  appendItems(items, Array.from({ length: calls }, (_, index) => step(index)), { joinModelTurns: true });
  return items;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const time = (run: () => unknown) => {
  const started = performance.now();
  run();
  return performance.now() - started;
};

console.log("| template | wrapper | prompt tokens (calls) | spliced | render whole ms | render ms | tokenize whole ms | next prompt ms | now, 7k ÷ 1k | whole, 7k ÷ 1k |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const template of templates) {
  const port = await loadModel(await forgedTemplateModel(template), { sequences: 1 });
  try {
    const functions = documentedFunctions(weatherTools as never, { answerRequired: true });
    const renderHistoryOf = (items: HistoryItem[]) => renderContext(port.chatRenderer, items, functions, { continueAfterCall: true });
    const render = (calls: number) => renderHistoryOf(history(calls));
    /** The fewest calls whose prompt holds at least `tokens` tokens. */
    const callsFor = (tokens: number) => {
      let calls = 1;
      while (port.tokenize(render(calls)).length < tokens) calls = Math.ceil(calls * 1.25);
      return calls;
    };
    const sizes = [callsFor(Number(values.small)), callsFor(7000)].map((calls) => {
      const previous = render(calls);
      return { calls, held: { text: previous.toString(), tokens: port.tokenize(previous) }, ms: { renderWhole: [] as number[], render: [] as number[], whole: [] as number[], next: [] as number[] } };
    });
    // Each step timed in a loop of its own (one's garbage is not collected in another's time): what a turn does now, then what it did before.
    const last = new Map<number, LlamaText>();
    for (let repeat = 0; repeat < repeats; repeat++) {
      for (const size of sizes) {
        // Turns in a row, as a run renders them, after a few that make its window: their mean.
        let rendered = render(size.calls - TURNS - WARM + 1);
        for (let turn = 0; turn < WARM; turn++) rendered = render(size.calls - TURNS - WARM + 2 + turn);
        // The histories built before the clock starts: a run appends a turn's items to the history it holds, where building
        // one anew joins every call's response again (quadratic in the calls, and not what a turn does).
        const histories = Array.from({ length: TURNS }, (_, turn) => history(size.calls - TURNS + 2 + turn));
        size.ms.render.push(time(() => histories.forEach((items) => (rendered = renderHistoryOf(items)))) / TURNS);
        last.set(size.calls, rendered);
      }
    }
    for (let repeat = 0; repeat < repeats; repeat++) {
      for (const size of sizes) size.ms.next.push(time(() => nextPrompt(port, last.get(size.calls)!, size.held, true)));
    }
    for (let repeat = 0; repeat < repeats; repeat++) {
      for (const size of sizes) {
        const items = history(size.calls + 1);
        let rendered = port.chatRenderer.render(items, functions);
        size.ms.renderWhole.push(time(() => (rendered = port.chatRenderer.render(items, functions))));
        size.ms.whole.push(time(() => port.tokenize(rendered)));
      }
    }
    // Whether the next prompt kept the held tokens and tokenized only the rest (else it fell back to tokenizing the whole text).
    const spliced = sizes
      .map((size) => {
        render(size.calls);
        const rendered = render(size.calls + 1);
        let whole = false;
        const watched = { tokenize: (text: LlamaText) => ((whole ||= text.toString() === rendered.toString()), port.tokenize(text)), detokenizeForSpy: (tokens: readonly number[]) => port.detokenizeForSpy(tokens), writesControlToken: port.writesControlToken?.bind(port) };
        nextPrompt(watched, rendered, size.held, true);
        return whole ? "no" : "yes";
      })
      .join(" / ");
    type Row = { tokens: number; renderWhole: number; render: number; whole: number; next: number };
    const [short, long] = sizes.map((size): Row => ({ tokens: size.held.tokens.length, renderWhole: median(size.ms.renderWhole), render: median(size.ms.render), whole: median(size.ms.whole), next: median(size.ms.next) }));
    const ratio = (pick: (size: Row) => number) => (pick(long!) / pick(short!)).toFixed(2);
    console.log(
      `| ${template} | ${port.description.wrapper} | ${short!.tokens} (${sizes[0]!.calls}) / ${long!.tokens} (${sizes[1]!.calls}) | ${spliced} | ${short!.renderWhole.toFixed(2)} / ${long!.renderWhole.toFixed(2)} | ${short!.render.toFixed(2)} / ${long!.render.toFixed(2)} | ${short!.whole.toFixed(2)} / ${long!.whole.toFixed(2)} | ${short!.next.toFixed(2)} / ${long!.next.toFixed(2)} | ${ratio((size) => size.render + size.next)} | ${ratio((size) => size.renderWhole + size.whole)} |`,
    );
  } finally {
    await port.dispose();
  }
}
