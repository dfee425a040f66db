import fc from "fast-check";
import * as nodeLlamaCpp from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { CITIES, weatherTools } from "../../../demos/weather-tools.js";
import { readCallFrame } from "../../../runtime/format/call-frame.js";
import { chooseCodec, chooseRunCodec } from "../../../runtime/codec/choose-codec.js";
import type { LogicalStep } from "../../../runtime/codec/step-codec.js";
import { StepEndTracker } from "../../../runtime/engine/decode/step-end.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { templateChatWrapper, type TemplateTokens } from "../../../runtime/llama-cpp/template-chat-wrapper.js";
import { buildStepSchema, stepParts, type StepSchemaOptions, type ToolSchemaSpec } from "../../../schemas/step-schema.js";
import { validateAgainst } from "../../../schemas/validator-cache.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";
import { grammarAccepts } from "../../helpers/grammar-acceptance.js";
import { renderedAroundSteps } from "../../helpers/history-steps.js";
import { appendItems, initialHistory } from "../../../runtime/history/history-items.js";
import { renderContext } from "../../../runtime/history/render-history.js";
import { Type } from "@sinclair/typebox";
import { createAgentSession, defineTool, runAgent, spyFirstTurn, type RunEvent } from "../../../index.js";
import { guardedStep } from "../../../runtime/compatible/guarded-step.js";
import { chatTools } from "../../helpers/chat-tools.js";

const OPTIONS: StepSchemaOptions<readonly ToolSchemaSpec[], boolean> = { tools: weatherTools, final: true, thought: true, thoughtMaxLength: 60, answerMaxLength: 60 };
const thought = fc.stringMatching(/^[A-Za-z0-9.,'"!?()°é東-][A-Za-z0-9.,'"!?()°é東 -]{0,58}[A-Za-z0-9.,'"!?()°é東-]$/);
const call = fc.oneof(
  fc.constantFrom(...CITIES).map((city) => ({ tool: "CityWeather", args: { city } })),
  fc.record({ a: fc.integer({ min: -50, max: 50 }), b: fc.integer({ min: 1, max: 9 }), op: fc.constantFrom("+", "-", "*", "/") }).map(({ a, b, op }) => ({ tool: "Calculator", args: { a, op, b } })),
);
const step = fc.record({ thought, call }) as fc.Arbitrary<LogicalStep>;

/** Templates whose call syntax the native codec writes, through the template wrapper; whether the template keeps the text beside a call. */
const LLAMA_TOKENS = { bos: "<|begin_of_text|>", eos: "<|eot_id|>", addBos: false };
const MISTRAL_TOKENS = { bos: "<s>", eos: "</s>", addBos: false };
const LFM_TOKENS = { bos: "<|startoftext|>", eos: "<|im_end|>", addBos: false, hasToken: (text: string) => ["<|tool_call_start|>", "<|tool_call_end|>"].includes(text) };
const DEEPSEEK_TOKENS = { bos: "<｜begin▁of▁sentence｜>", eos: "<｜end▁of▁sentence｜>", addBos: false };
const TEMPLATES: Array<[name: string, keepsThought: boolean, tokens: TemplateTokens]> = [
  ["NousResearch-Hermes-3-Llama-3.1-8B-tool_use", false, LLAMA_TOKENS],
  ["meta-llama-Llama-3.2-3B-Instruct", false, LLAMA_TOKENS],
  ["meta-llama-Llama-3.1-8B-Instruct", false, LLAMA_TOKENS],
  ["llama-cpp-microsoft-Phi-4-mini-instruct", true, LLAMA_TOKENS],
  ["meetkai-functionary-medium-v3.2", true, LLAMA_TOKENS],
  ["Mistral-Small-3.2-24B-Instruct-2506", false, MISTRAL_TOKENS],
  ["mistralai-Mistral-Nemo-Instruct-2407", false, MISTRAL_TOKENS],
  // Arguments in the template's own notation: Python's keyword arguments, Gemma 4's `{key:<|"|>…<|"|>}`.
  ["LFM2.5-8B-A1B", true, LFM_TOKENS],
  // Templates that render no calls, of a family that writes them in its content (content-calls.ts): written there.
  ["LFM2-8B-A1B", true, LFM_TOKENS],
  ["LFM2.5-Instruct", true, LFM_TOKENS],
  ["google-gemma-4-31B-it", true, { bos: "<bos>", eos: "<turn|>", addBos: false }],
  // Its first call opens the call list, later ones only a call (LaterCalls); the text beside a call goes after it.
  ["deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", false, DEEPSEEK_TOKENS],
];

describe.each(TEMPLATES)("the native codec read off the %s template", (name, keepsThought, tokens) => {
  const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()[name]!, tokens);
  const model = scriptedModel([], { chatWrapper });
  const codec = chooseCodec(model, undefined);
  const schema = buildStepSchema(OPTIONS);
  const parts = stepParts(OPTIONS);
  const gbnf = codec.grammar(parts);
  const expected = (logical: LogicalStep) => (keepsThought ? logical : { ...logical, thought: "" });

  it(`is native, ${keepsThought ? "with" : "without"} the thought, as the template renders a call`, () => {
    expect(codec.name).toBe("native");
    expect(readCallFrame(model)).toMatchObject({ ok: true, frame: { keepsThought } });
  });

  it("reads back every step it writes, valid under the step schema; the grammar writes it; its end is found where it ends", async () => {
    await fc.assert(
      fc.asyncProperty(step, async (logical) => {
        const text = codec.encode(logical);
        const decoded = codec.decode(text, parts);
        expect(decoded).toEqual({ ok: true, value: expected(logical) });
        expect(validateAgainst(schema, (decoded as { value: unknown }).value)).toEqual([]);
        expect(await grammarAccepts(gbnf, text)).toBe(true);
        expect(new StepEndTracker(codec.end(parts)).push(text)).toBe(text.length);
        // The same call without a thought: the grammar writes it too, and its end is found.
        const bare = codec.encode({ ...logical, thought: "" });
        expect(await grammarAccepts(gbnf, bare)).toBe(true);
        expect(new StepEndTracker(codec.end(parts)).push(bare)).toBe(bare.length);
      }),
      { numRuns: 30 },
    );
  });

  it("is what the next prompt shows right after the generation prompt it was written from, call after call", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 3 }), (logicals) => {
        for (const { text, before, after } of renderedAroundSteps(model, codec, logicals)) expect(after).toContain(before.slice(-12) + text);
      }),
      { numRuns: 20 },
    );
  });
});

describe("a template that numbers its calls (Mistral Small's [CALL_ID]000000001, then 000000002)", () => {
  const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["Mistral-Small-3.2-24B-Instruct-2506"]!, MISTRAL_TOKENS);
  const model = scriptedModel([], { chatWrapper });
  const codec = chooseCodec(model, undefined);
  const logical: LogicalStep = { call: { tool: "CityWeather", args: { city: "Paris" } } };

  it("has a native frame with the call's number in it, zero-padded to nine digits", () => {
    expect(readCallFrame(model)).toMatchObject({ ok: true, frame: { beforeArgs: "[CALL_ID]000000001[ARGS]", callNumber: { field: "beforeArgs", at: 9, width: 9 } } });
    expect(codec.encode(logical, 12)).toBe('[TOOL_CALLS]CityWeather[CALL_ID]000000012[ARGS]{"city": "Paris"}');
  });

  it("writes the number of the call the step makes, and no other", async () => {
    const second = { ...stepParts(OPTIONS), callNumber: 2 };
    const gbnf = codec.grammar(second);
    expect(await grammarAccepts(gbnf, codec.encode(logical, 2))).toBe(true);
    expect(await grammarAccepts(gbnf, codec.encode(logical, 1))).toBe(false);
    expect(codec.decode(codec.encode(logical, 2), second)).toEqual({ ok: true, value: { thought: "", call: logical.call } });
    expect(codec.decode(codec.encode(logical, 1), second).ok).toBe(false);
    expect(new StepEndTracker(codec.end(second)).push(codec.encode(logical, 2))).toBe(codec.encode(logical, 2).length);
  });

  it("runs the loop call after call: each step writes the next number, and the next prompt shows it as written", async () => {
    const steps = [
      { thought: "", call: { tool: "CityWeather", args: { city: "Paris" } } },
      { thought: "", call: { tool: "CityWeather", args: { city: "Tokyo" } } },
      { thought: "", call: { tool: "FinalAnswer", answer: "Paris and Tokyo." } },
    ];
    const scripted = scriptedModel(steps, { chatWrapper });
    const result = await runAgent({ model: scripted, tools: weatherTools, task: "Weather in Paris and Tokyo?" });
    expect(result).toMatchObject({ status: "answered", codec: "native" });
    expect(result.turns.map((turn) => turn.raw)).toEqual([codec.encode(steps[0]!, 1), codec.encode(steps[1]!, 2), codec.encode(steps[2]!, 3)]);
    expect(scripted.requests[1]!.promptText).toContain(`${codec.encode(steps[0]!, 1)}</s>[TOOL_RESULTS]000000001[TOOL_CONTENT]`);
    expect(scripted.requests[2]!.promptText).toContain(`${codec.encode(steps[1]!, 2)}</s>[TOOL_RESULTS]000000002[TOOL_CONTENT]`);
  });

  it("keeps a call's number when the exchanges before it are left out of the prompt", () => {
    const history = initialHistory("System.", "Task.");
    appendItems(history, codec.callItems("", logical, { name: "CityWeather", args: { city: "Paris" }, result: { ok: true } }, 7), { joinModelTurns: true });
    const rendered = renderContext(model.chatRenderer, history, undefined, { continueAfterCall: true }).toString();
    expect(rendered).toContain("[CALL_ID]000000007[ARGS]");
    expect(rendered).toContain("[TOOL_RESULTS]000000007[TOOL_CONTENT]");
  });
});

describe("a tool whose parameters the template's own notation cannot write", () => {
  const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["google-gemma-4-31B-it"]!, { bos: "<bos>", eos: "<turn|>", addBos: false });
  // Gemma 4 writes keys sorted: no grammar keeps the free keys of a map in that order.
  const tools = [defineTool({ name: "Tag", description: "Tags a thing.", params: Type.Object({ tags: Type.Record(Type.String(), Type.String()) }), run: async () => ({ ok: true }) })];

  it("runs in JSON steps, and the result says why", async () => {
    const steps = [{ thought: "", call: { tool: "Tag", args: { tags: { a: "b" } } } }, { thought: "", call: { tool: "FinalAnswer", answer: "Tagged." } }];
    const result = await runAgent({ model: scriptedModel(steps, { chatWrapper }), tools, task: "Tag it." });
    expect(result).toMatchObject({ status: "answered", codec: "json", codecFallback: expect.stringContaining("tool Tag's parameters") });
  });

  it("is found through references too, and in a fixed value (a literal the notation's strings cannot hold)", async () => {
    const referenced = defineTool({ name: "Prices", description: "Prices.", params: Type.Unsafe({ type: "object", properties: { prices: { $ref: "#/$defs/Prices" } }, required: ["prices"], $defs: { Prices: { type: "object", additionalProperties: { type: "number" } } } }), run: async () => ({ ok: true }) });
    const answer = [{ thought: "", call: { tool: "FinalAnswer", answer: "None." } }];
    expect(await runAgent({ model: scriptedModel(answer, { chatWrapper }), tools: [referenced], task: "Prices?", requireTool: "never" })).toMatchObject({ codec: "json", codecFallback: expect.stringContaining("tool Prices's parameters") });
    const lfm = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["LFM2.5-8B-A1B"]!, { bos: "<|startoftext|>", eos: "<|im_end|>", addBos: false });
    // A list is written as Python's repr, whose strings hold no apostrophe (a keyword argument's may: `city='Côte d'Ivoire'`).
    const listed = defineTool({ name: "Visit", description: "Visits.", params: Type.Object({ cities: Type.Array(Type.Union([Type.Literal("Paris"), Type.Literal("Côte d'Ivoire")])) }), run: async () => ({ ok: true }) });
    expect(await runAgent({ model: scriptedModel(answer, { chatWrapper: lfm }), tools: [listed], task: "Visit?", requireTool: "never" })).toMatchObject({ codec: "json", codecFallback: expect.stringMatching(/tool Visit's parameters: .*"Côte d'Ivoire" cannot be written in the python-repr notation/) });
    const single = defineTool({ name: "Visit", description: "Visits.", params: Type.Object({ city: Type.Union([Type.Literal("Paris"), Type.Literal("Côte d'Ivoire")]) }), run: async () => ({ ok: true }) });
    expect(await runAgent({ model: scriptedModel(answer, { chatWrapper: lfm }), tools: [single], task: "Visit?", requireTool: "never" })).toMatchObject({ codec: "native" });
  });

  it("is a CodecUnavailableError naming the tool when native steps are asked for", async () => {
    await expect(runAgent({ model: scriptedModel([], { chatWrapper }), tools, task: "Tag it.", codec: "native" })).rejects.toThrow(/Tag's parameters/);
  });
});

describe("a template that opens its call list once per conversation (DeepSeek-R1's)", () => {
  const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["deepseek-ai-DeepSeek-R1-Distill-Qwen-32B"]!, DEEPSEEK_TOKENS);
  const model = scriptedModel([], { chatWrapper });
  const codec = chooseCodec(model, undefined);
  const weather = (city: string) => ({ thought: "", call: { tool: "CityWeather", args: { city } } });
  const answer = (text: string) => ({ thought: "", call: { tool: "FinalAnswer" as const, answer: text } });

  it("opens the conversation's first call with the call list and every later one with a call alone; the text beside a call, written after it, is not kept", () => {
    expect(readCallFrame(model)).toMatchObject({
      ok: true,
      frame: {
        keepsThought: false,
        withoutThought: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>",
        later: { opening: "\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>", dropped: { afterResult: "<｜tool▁outputs▁end｜>", afterUser: "<｜Assistant｜>" } },
        documentsTools: false,
      },
    });
    expect(codec.encode(weather("Paris"), 2)).toBe('\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>CityWeather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>');
  });

  it("opens a call as the first the prompt shows where earlier exchanges are left out, whatever the conversation's count", async () => {
    const parts = { ...stepParts(OPTIONS), callNumber: 5, callsShown: 0 };
    const gbnf = codec.grammar(parts);
    const first = codec.encode(weather("Paris"), 5, 0);
    expect(first.startsWith("<｜tool▁calls▁begin｜>")).toBe(true);
    expect(await grammarAccepts(gbnf, first)).toBe(true);
    expect(await grammarAccepts(gbnf, codec.encode(weather("Paris"), 5))).toBe(false);
    expect(codec.droppedPromptEnd("user", 0)).toBe("");
    expect(codec.droppedPromptEnd("user", 4)).toBe("<｜Assistant｜>");

    // A session whose second question no longer has room for the first exchange: it is left out, and the question's first call
    // opens the call list, as the template renders the first call it shows.
    const steps = [weather("Paris"), answer("18."), weather("Tokyo"), answer("27.")];
    const ask = async (contextSize?: number) => {
      const scripted = scriptedModel(steps, { chatWrapper, contextSize });
      const chat = createAgentSession({ model: scripted, tools: weatherTools, profile: "large", stepReserve: 300, toolShare: 1 });
      const results = [await chat.ask("Weather in Paris?"), await chat.ask("Weather in Tokyo?")];
      chat.close();
      return { results, prompts: scripted.requests.map((request) => request.promptText) };
    };
    const whole = await ask();
    const { results, prompts } = await ask(whole.prompts[1]!.length + 600);
    expect(results.map((result) => [result.status, result.dropped.length])).toEqual([["answered", 0], ["answered", 1]]);
    expect(prompts[2]).not.toContain("Weather in Paris?");
    expect(prompts[2]).toMatch(/<｜User｜>Weather in Tokyo\?<｜Assistant｜>$/);
    expect(results[1]!.turns[0]!.raw).toBe(codec.encode(weather("Tokyo"), 2, 0));
    expect(prompts[3]!.startsWith(prompts[2]! + results[1]!.turns[0]!.raw)).toBe(true);
  });

  it("runs two questions: every step is what the next prompt shows right after the prompt it was written from, and a question's later turns extend the last prompt", async () => {
    // The first answer names a number no result gave: the answer gate's note follows as a user message, and the next call opens after it.
    const steps = [weather("Paris"), weather("Tokyo"), answer("Paris 18, Tokyo 24."), answer("Paris 18, Tokyo 27."), weather("Berlin"), answer("16.")];
    const scripted = scriptedModel(steps, { chatWrapper });
    const chat = createAgentSession({ model: scripted, tools: weatherTools });
    const results = [await chat.ask("Weather in Paris and Tokyo?"), await chat.ask("And in Berlin?")];
    chat.close();
    expect(results.map((result) => [result.status, result.codec])).toEqual([["answered", "native"], ["answered", "native"]]);
    const raws = results.flatMap((result) => result.turns.map((turn) => turn.raw));
    expect(raws).toEqual(steps.map((step, index) => codec.encode(step, index + 1)));
    const prompts = scripted.requests.map((request) => request.promptText);
    // The template lists no tools: the system text does.
    expect(prompts[0]).toContain("\n\nTools:\n- CityWeather: ");
    // After a result the prompt leaves out the `<｜tool▁outputs▁end｜>` a call replaces; after a user message (the gate's note, the
    // second question), the `<｜Assistant｜>` a later call drops.
    expect(prompts[1]).toMatch(/<｜tool▁output▁end｜>$/);
    expect(prompts[3]).toMatch(/<｜tool▁output▁end｜><｜User｜>Your answer used 24[^<]*\.$/);
    expect(prompts[4]).toMatch(/<｜User｜>And in Berlin\?$/);
    for (const index of [0, 1, 4]) expect(prompts[index + 1]!.startsWith(prompts[index]! + raws[index])).toBe(true);
    // The refused answer is not shown; the prompt after it goes on from the one it was written after. (A question's answer is
    // shown to the next question as the answer's text, as on every template.)
    expect(prompts[3]!.startsWith(prompts[2]!)).toBe(true);
    expect(prompts[4]).toContain("<｜Assistant｜>Paris 18, Tokyo 27.<｜end▁of▁sentence｜><｜User｜>And in Berlin?");
  });
});

describe("DeepSeek-R1-Distill's template as published with the model (a call only where the content is none)", () => {
  const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["deepseek-ai-DeepSeek-R1-Distill-Llama-8B"]!, DEEPSEEK_TOKENS);
  const model = scriptedModel([], { chatWrapper });

  it("shows its calls once a call's content is none: their syntax is read, and the JSON fallback says why the frame cannot be written", () => {
    expect(chatWrapper.settings.functions.call.prefix).toBe("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>");
    // The first call's list is never closed; only a later one closes it: no one frame writes both.
    expect(chooseRunCodec(model, undefined, () => [])).toEqual({ codec: expect.objectContaining({ name: "json" }), fallback: expect.stringContaining("a second call in a row is rendered in another frame") });
  });

  it("runs in JSON steps, its result and run-start event saying why", async () => {
    const events: RunEvent[] = [];
    const steps = [{ thought: "", call: { tool: "FinalAnswer", answer: "Mild." } }];
    const result = await runAgent({ model: scriptedModel(steps, { chatWrapper }), tools: weatherTools, task: "Weather?", requireTool: "never", onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ status: "answered", codec: "json", codecFallback: expect.stringContaining("rendered in another frame") });
    expect(events[0]).toMatchObject({ type: "run-start", codecFallback: result.codecFallback });
  });

  it("says why in the run-start event of every way a question starts: a run, a session's ask, a guarded step; the spy emits none", async () => {
    const starts = async (start: (onEvent: (event: RunEvent) => void) => Promise<unknown>) => {
      const events: RunEvent[] = [];
      await start((event) => events.push(event));
      return events.filter((event) => event.type === "run-start");
    };
    const final = () => scriptedModel([{ thought: "", call: { tool: "FinalAnswer", answer: "Mild." } }], { chatWrapper });
    const common = { tools: weatherTools, requireTool: "never" as const };
    const expected = [expect.objectContaining({ codec: "json", codecFallback: expect.stringContaining("rendered in another frame") })];
    expect(await starts((onEvent) => runAgent({ ...common, model: final(), task: "Weather?", onEvent }))).toEqual(expected);
    expect(await starts((onEvent) => createAgentSession({ ...common, model: final(), onEvent }).ask("Weather?"))).toEqual(expected);
    expect(await starts((onEvent) => guardedStep({ model: final(), requireTool: "never", messages: [{ role: "user", content: "Weather?" }], tools: chatTools(weatherTools), onEvent }))).toEqual(expected);
    expect(await starts(async (onEvent) => spyFirstTurn({ ...common, model: final(), task: "Weather?", onEvent }))).toEqual([]);
  });
});

describe("a chat format without a call syntax of its own", () => {
  it("writes JSON steps, and says why, except ChatML's json-v1 (narrowgauge's own models' format)", () => {
    const gemma2 = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["google-gemma-2-2b-it"]!, { bos: "<bos>", eos: "<end_of_turn>", addBos: false });
    expect(chooseRunCodec(scriptedModel([], { chatWrapper: gemma2 }), undefined, () => [])).toEqual({ codec: expect.objectContaining({ name: "json" }), fallback: expect.stringContaining("the chat template renders no tool call") });
    expect(chooseRunCodec(scriptedModel([], { chatWrapper: new nodeLlamaCpp.GemmaChatWrapper() }), undefined, () => [])).toEqual({ codec: expect.objectContaining({ name: "json" }), fallback: "the Gemma chat format has no call syntax of its own" });
    expect(chooseRunCodec(scriptedModel([], { chatWrapper: new nodeLlamaCpp.ChatMLChatWrapper() }), undefined, () => [])).toEqual({ codec: expect.objectContaining({ name: "json-v1" }), fallback: null });
  });
});
