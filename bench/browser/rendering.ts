import { JinjaTemplateChatWrapper } from "node-llama-cpp";
import { forgedModelFile } from "../forge/real-tokenizers.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { spyFirstTurn } from "../../runtime/loop/start-question.js";
import { loadModel } from "../../runtime/backends/llama/load-model.js";
import { chatRendererOf } from "../../runtime/llama-cpp/chat-renderer-of.js";
import { tinyModelFile } from "../../runtime/gguf/forge/tiny-model-file.js";

/**
 * `npm run bench:rendering`: the two ways a page could render a model's
 * prompts without node-llama-cpp's native addon, measured against Node's
 * rendering (node-llama-cpp's resolved chat wrapper): node-llama-cpp's own
 * wrappers bundled (the same code: what narrowgauge/browser does), or the
 * GGUF's Jinja template rendered by @huggingface/jinja (here through
 * node-llama-cpp's JinjaTemplateChatWrapper, which uses it). Per model: the
 * first turn's prompt tokens each way, and whether the Jinja prompt is
 * Node's.
 */
const models: Array<[string, () => Promise<string>]> = [
  ["built-in tiny", () => tinyModelFile()],
  ["trained default", async () => "models/narrowgauge-weather.q8_0.gguf"],
  ["Qwen3 forged", () => forgedModelFile("qwen3")],
  ["Llama 3.1 forged", () => forgedModelFile("llama3_1")],
];
console.log("| model | Node's wrapper | its prompt (tokens) | Jinja template's prompt (tokens) | same prompt |\n| --- | --- | --- | --- | --- |");
for (const [name, file] of models) {
  const model = await loadModel(await file(), { sequences: 1, contextSize: 4096 });
  try {
    const template = model.opened.model.fileInfo.metadata.tokenizer?.chat_template as string | undefined;
    const options = { tools: weatherTools, task: WEATHER_TASK, profile: "sub1b" as const };
    const node = spyFirstTurn({ ...options, model });
    let jinja = "no template in the GGUF";
    if (template) {
      const wrapper = new JinjaTemplateChatWrapper({ template, tokenizer: model.opened.model.tokenizer });
      const turn = spyFirstTurn({ ...options, model: { ...model, chatRenderer: chatRendererOf(wrapper), description: { ...model.description, wrapper: wrapper.wrapperName } } });
      jinja = `${turn.tokens} | ${turn.prompt === node.prompt ? "yes" : `no (${firstDifference(turn.prompt, node.prompt)})`}`;
    }
    console.log(`| ${name} | ${model.description.wrapper} | ${node.tokens} | ${jinja} |`);
  } finally {
    await model.dispose();
  }
}

function firstDifference(a: string, b: string): string {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return `differs at character ${at}: ${JSON.stringify(a.slice(at, at + 24))} vs ${JSON.stringify(b.slice(at, at + 24))}`;
}
