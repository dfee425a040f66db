import { chatRendererOf } from "../../../runtime/llama-cpp/chat-renderer-of.js";
import type { CallPart, HistoryItem, ModelItem } from "../../../base/chat-history.js";
import * as nodeLlamaCpp from "node-llama-cpp";
import { LlamaText, type ChatModelFunctions, type ChatWrapper } from "node-llama-cpp";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IncrementalRenderer } from "../../../runtime/history/incremental-render.js";
import { renderContext } from "../../../runtime/history/render-history.js";
import { templateChatWrapper } from "../../../runtime/llama-cpp/template-chat-wrapper.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";
import { atTier } from "../../tier.js";

/** A text's values as (kind, text) runs: two renderings that tokenize alike read alike here. */
function runs(text: LlamaText): string {
  const out: Array<[string, string]> = [];
  for (const value of text.values) {
    const kind = typeof value === "string" ? "plain" : value.toJSON().type;
    const valueText = value.toString();
    const last = out.at(-1);
    if (valueText === "" && kind !== "specialToken") continue;
    if (last && last[0] === kind && kind !== "specialToken") last[1] += valueText;
    else out.push([kind, valueText]);
  }
  return JSON.stringify(out);
}

const call = (index: number) => ({ type: "functionCall" as const, name: "CityWeather", params: { city: `Paris ${index}` }, result: { temperatureC: index }, callNumber: index + 1 });

/**
 * A run's histories turn by turn, as the loop renders them: calls with
 * thoughts appended to the model's turn (with `native`, ending at the
 * call; else with an empty model turn after it), an answer, a second
 * question, and more calls.
 */
function turns(native: boolean): HistoryItem[][] {
  const history: HistoryItem[] = [
    { type: "system", text: "You are careful." },
    { type: "user", text: "What is the weather in Paris?" },
  ];
  const shown = () => (native && history.at(-1)?.type === "model" ? [...history] : [...history, { type: "model" as const, response: [] }]);
  const out = [shown()];
  for (let index = 0; index < 30; index++) {
    const last = history.at(-1)!;
    const parts = [`I look up Paris ${index}.`, call(index)];
    if (last.type === "model") history[history.length - 1] = { ...last, response: [...last.response, ...parts] };
    else history.push({ type: "model", response: parts });
    if (index === 2) {
      const answered = history.at(-1) as { type: "model"; response: unknown[] };
      history[history.length - 1] = { ...answered, response: [...answered.response, "It is 9 °C."] } as HistoryItem;
      history.push({ type: "user", text: "And in Tokyo?" });
    }
    out.push(shown());
  }
  return out;
}

const functions: ChatModelFunctions = { CityWeather: { description: "Current weather for a city.", params: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } };

/** Renders every turn both ways; the number of turns rendered as an addition. Throws where a turn's two renderings differ. */
function compare(wrapper: ChatWrapper, native: boolean): { appended: number; turns: number } {
  const renderer = new IncrementalRenderer();
  let rendered = 0;
  for (const history of turns(native)) {
    let whole: LlamaText;
    try {
      whole = chatRendererOf(wrapper).render([...history], functions);
    } catch {
      continue;
    }
    rendered++;
    const incremental = renderer.render(history, "functions", (items) => chatRendererOf(wrapper).render(items, functions));
    expect(runs(incremental), `turn ${rendered}`).toBe(runs(whole));
  }
  return { appended: renderer.counts.appended, turns: rendered };
}

const tokens = { bos: "<s>", eos: "</s>", addBos: false };

/** What a run does next: a call (with or without a thought, an object or a text result), an answer, a new question or a refusal, or a note into the last result. */
type Operation = { kind: "call"; thought: boolean; city: number; textResult: boolean } | { kind: "answer" } | { kind: "user" } | { kind: "note" };
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant("call" as const), thought: fc.boolean(), city: fc.integer({ min: 0, max: 3 }), textResult: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "answer" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "user" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "note" as const }) },
);

/** The histories a run's operations make, one after each. */
function historiesOf(operations: readonly Operation[], numbered = true): HistoryItem[][] {
  const history: HistoryItem[] = [
    { type: "system", text: "You are careful." },
    { type: "user", text: "What is the weather?" },
  ];
  const out: HistoryItem[][] = [];
  let calls = 0;
  const appendParts = (parts: ModelItem["response"]) => {
    const last = history.at(-1)!;
    if (last.type === "model") history[history.length - 1] = { ...last, response: [...last.response, ...parts] };
    else history.push({ type: "model", response: parts });
  };
  for (const op of operations) {
    if (op.kind === "call") {
      const city = ["Paris", "Tokyo", "Lima", "Oslo"][op.city]!;
      const result = op.textResult ? `${city}: 18 °C` : { city, temperatureC: 18 + op.city };
      appendParts([...(op.thought ? [`I look up ${city}.`] : []), { type: "functionCall", name: "CityWeather", params: { city }, result, ...(numbered ? { callNumber: ++calls } : (calls++, {})) } as CallPart]);
    } else if (op.kind === "answer") appendParts([`It is ${calls} °C.`]);
    else if (op.kind === "user") history.push({ type: "user", text: `And question ${out.length}?` });
    else {
      const last = history.at(-1);
      const part = last?.type === "model" ? last.response.at(-1) : undefined;
      if (last?.type !== "model" || typeof part !== "object" || part.type !== "functionCall") continue;
      history[history.length - 1] = { ...last, response: [...last.response.slice(0, -1), { ...part, result: { result: part.result, note: "Call another tool." } }] };
    }
    out.push([...history]);
  }
  return out;
}

describe("incremental rendering: every turn as the whole history renders it, at the cost of what it adds", () => {
  for (const [name, source] of Object.entries(corpusTemplates())) {
    it(`${name}: the same prompt on every turn, native and json, across a second question`, () => {
      const wrappers: ChatWrapper[] = [templateChatWrapper(nodeLlamaCpp, source, tokens)];
      // node-llama-cpp's own Jinja wrapper, which Qwen3 and Nemotron keep (it renders alike).
      if (/Qwen3|Nemotron/.test(name)) wrappers.push(new nodeLlamaCpp.JinjaTemplateChatWrapper({ template: source }));
      for (const wrapper of wrappers) {
        for (const native of [true, false]) {
          const { appended, turns } = compare(wrapper, native);
          // Every template that renders the run renders most of its turns as additions (Gemma 2 refuses the tool role).
          if (turns > 1) expect(appended, `${native ? "native" : "json"} turns as additions`).toBeGreaterThanOrEqual(6);
        }
      }
    });
  }

  it("renders whole through renderContext with a wrapper it is not tested against: Functionary's writes a response's calls together, before their results", () => {
    const wrapper = new nodeLlamaCpp.FunctionaryChatWrapper();
    // Calls to one city, a note into the last result, then a call with a thought (a run fast-check found).
    const call = (thought: boolean): Operation => ({ kind: "call", thought, city: 0, textResult: false });
    const operations: Operation[] = [call(false), call(false), call(false), call(true), call(false), call(true), call(false), { kind: "note" }, call(true)];
    for (const history of historiesOf(operations, false)) expect(renderContext(chatRendererOf(wrapper), history, functions).toString()).toBe(chatRendererOf(wrapper).render([...history, { type: "model", response: [] }], functions).toString());
  });

  const partText = (part: string | CallPart) => (typeof part === "string" ? part : `call ${part.type === "functionCall" ? JSON.stringify(part.params) : ""}`);
  it("on random runs (calls numbered or not, answers, new questions, notes into a result), every template renders every turn as the whole history does", () => {
    const wrappers = Object.entries(corpusTemplates()).flatMap(([name, source]) => [
      { name, wrapper: templateChatWrapper(nodeLlamaCpp, source, tokens) },
      ...(/Qwen3|Nemotron/.test(name) ? [{ name: `${name} (node-llama-cpp's Jinja)`, wrapper: new nodeLlamaCpp.JinjaTemplateChatWrapper({ template: source }) as ChatWrapper }] : []),
    ]);
    // node-llama-cpp's wrappers that renderContext renders as additions too (ChatML is the demo model's).
    for (const Wrapper of [nodeLlamaCpp.ChatMLChatWrapper, nodeLlamaCpp.GeneralChatWrapper, nodeLlamaCpp.Llama3_1ChatWrapper]) wrappers.push({ name: Wrapper.name, wrapper: new Wrapper() });
    let appended = 0;
    let cut = 0;
    fc.assert(
      fc.property(fc.constantFrom(...wrappers), fc.array(operation, { minLength: 4, maxLength: 40 }), fc.boolean(), fc.boolean(), ({ wrapper }, operations, native, numbered) => {
        const renderer = new IncrementalRenderer();
        // Calls the step numbered (native) or not (the json codec's: a template that gives ids numbers them by position).
        for (const history of historiesOf(operations, numbered)) {
          const shown = native && history.at(-1)?.type === "model" && (history.at(-1) as ModelItem).response.some((part) => typeof part === "object") ? history : [...history, { type: "model" as const, response: [] }];
          let whole: string;
          try {
            whole = runs(chatRendererOf(wrapper).render([...shown], functions));
          } catch {
            continue;
          }
          expect(runs(renderer.render(shown, "functions", (items) => chatRendererOf(wrapper).render(items, functions)))).toBe(whole);
        }
        appended += renderer.counts.appended;
        cut += renderer.counts.cut;
      }),
      // NG_RUNS and NG_SEED run more, or another seed; the unit tier runs a fifth of the full tier's runs.
      { numRuns: Number(process.env.NG_RUNS ?? atTier(60, 300)), seed: Number(process.env.NG_SEED ?? 20261203) },
    );
    // The property holds where the path is taken: many turns were additions.
    expect(appended).toBeGreaterThan(atTier(40, 200));
    expect(cut).toBeGreaterThan(atTier(10, 50));
    console.log(`random runs: ${appended} turns rendered as additions, ${cut} of them through a window cut from the last one`);
  });

  const line = (item: HistoryItem) => (item.type === "model" ? item.response.map(partText).join("|") : item.text.toString());
  const plain = (render: (history: HistoryItem[]) => string) => (history: HistoryItem[]) => LlamaText(render(history));
  const history = (calls: number, extra: HistoryItem[] = []): HistoryItem[] => [
    { type: "system", text: "S" },
    { type: "user", text: "Q" },
    { type: "model", response: Array.from({ length: calls }, (_, index) => [`t${index}`, call(index)]).flat() },
    ...extra,
  ];

  it("renders as an addition where the window extends, and counts it", () => {
    const renderer = new IncrementalRenderer();
    const render = plain((items) => items.map(line).join("\n"));
    for (let calls = 1; calls <= 24; calls++) expect(renderer.render(history(calls), "", render).toString()).toBe(render(history(calls)).toString());
    expect(renderer.counts.appended).toBeGreaterThan(6);
  });

  it("renders a turn once: the window is the last turn's, its middle cut at a turn it added, and keeps the head and two turns", () => {
    const renderer = new IncrementalRenderer();
    const sizes: number[] = [];
    const render = plain((items) => (sizes.push(items.length === 3 ? (items[2] as ModelItem).response.length : 0), items.map(line).join("\n")));
    const turns: number[] = [];
    for (let calls = 1; calls <= 40; calls++) {
      const before = renderer.counts.renderings;
      expect(renderer.render(history(calls), "", render).toString()).toBe(render(history(calls)).toString());
      turns.push(renderer.counts.renderings - before);
    }
    // Rendered whole while a window would hold half the history; a window made (the window, the head alone, the window with
    // what is new) once; then one rendering a turn.
    expect(turns.slice(20)).toEqual(Array(20).fill(1));
    // The window rendered last (before the check's own whole rendering): the head's call, two turns and the new one.
    expect(sizes.at(-2)).toBe(2 * 4);
  });

  it("renders whole where the new turn rewrites earlier text (a template that drops old thoughts after a new question)", () => {
    // Thoughts shown only after the last question, as Qwen3 shows reasoning (the first call's kept: the rewrite starts inside the window).
    const render = plain((items) => {
      const lastUser = items.findLastIndex((item) => item.type === "user");
      return items.map((item, index) => (item.type === "model" && index < lastUser ? item.response.filter((part, at) => at < 2 || typeof part !== "string").map(partText).join("|") : line(item))).join("\n");
    });
    const renderer = new IncrementalRenderer();
    for (let calls = 1; calls <= 10; calls++) renderer.render(history(calls), "", render);
    const before = renderer.counts.whole;
    const asked = history(10, [{ type: "user", text: "Q2" }]);
    expect(renderer.render(asked, "", render).toString()).toBe(render(asked).toString());
    expect(renderer.counts.whole).toBe(before + 1);
  });

  it("renders whole where an earlier item changed, or what else the rendering depends on did (the key)", () => {
    const renderer = new IncrementalRenderer();
    const render = plain((items) => items.map(line).join("\n"));
    for (let calls = 1; calls <= 10; calls++) renderer.render(history(calls), "a", render);
    const changed = history(11);
    (changed[2] as { response: unknown[] }).response[1] = { ...call(0), params: { city: "Lyon" } };
    const whole = renderer.counts.whole;
    expect(renderer.render(changed, "a", render).toString()).toBe(render(changed).toString());
    expect(renderer.render(history(12), "b", render).toString()).toBe(render(history(12)).toString());
    expect(renderer.counts.whole).toBe(whole + 2);
  });

  it("renders whole where the window shows the old items otherwise than the whole history does (a template numbering its calls from the start)", () => {
    const renderer = new IncrementalRenderer();
    const render = plain((items) => {
      let number = 0;
      return items.map((item) => (item.type === "model" ? item.response.map((part) => (typeof part === "string" ? part : `call#${number++}`)).join("|") : line(item))).join("\n");
    });
    for (let calls = 1; calls <= 10; calls++) expect(renderer.render(history(calls), "", render).toString()).toBe(render(history(calls)).toString());
    expect(renderer.counts.appended).toBe(0);
  });

  it("keeps a rewrite of the last item only (a template that ends its last result otherwise), and renders whole where a window throws", () => {
    const renderer = new IncrementalRenderer();
    const render = plain((items) => items.map(line).join("\n") + (items.at(-1)?.type === "model" ? "<end>" : ""));
    for (let calls = 1; calls <= 24; calls++) expect(renderer.render(history(calls), "", render).toString()).toBe(render(history(calls)).toString());
    expect(renderer.counts.appended).toBeGreaterThan(4);
    const refusing = new IncrementalRenderer();
    // Refuses a model turn of fewer than six calls: every window (its head's call and a few more) is refused.
    const strict = (items: HistoryItem[]) => {
      if (items.some((item) => item.type === "model" && item.response.length < 12)) throw new Error("roles must alternate");
      return render(items);
    };
    for (let calls = 6; calls <= 10; calls++) expect(refusing.render(history(calls), "", strict).toString()).toBe(render(history(calls)).toString());
    expect(refusing.counts.appended).toBe(0);
  });
});
