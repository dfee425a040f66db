import { basename } from "node:path";
import { forgedModelFile } from "../forge/real-tokenizers.js";
import { buildDemo } from "../../browser/demo/build-demo.js";
import { serveStatic } from "../../browser/demo/serve-static.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { runAgent } from "../../runtime/loop/run-agent.js";
import type { RunResult } from "../../runtime/loop/run-types.js";
import { loadModel } from "../../runtime/backends/llama/load-model.js";
import { narrowgaugeCacheDir } from "../../runtime/gguf/cache-dir.js";
import { launchChromium } from "../../test/helpers/browser.js";

/**
 * `npm run bench:browser`: the weather demo (greedy, the demo's settings) on
 * the same model in a headless Chromium page (llama.cpp's WebAssembly build
 * through wllama 2.4.0) and in Node (node-llama-cpp's native build), one
 * and two threads each, side by side in one run. Reported per run: ms per
 * generated token (sampling time ÷ tokens generated, forced ones included,
 * as each side writes them), prompt evaluation in ms per 1k tokens, and the
 * page ÷ Node ratio.
 */
interface Row {
  where: string;
  threads: number;
  generated: number;
  msPerToken: number;
  promptMsPer1k: number;
  answer: string | null;
}

const measure = (where: string, threads: number, result: RunResult): Row => {
  const generated = result.turns.reduce((sum, turn) => sum + turn.generatedTokens, 0);
  const sampling = result.turns.reduce((sum, turn) => sum + turn.ms.sampling, 0);
  const prompt = result.turns.reduce((sum, turn) => sum + turn.ms.prompt, 0);
  const evaluated = result.turns.reduce((sum, turn) => sum + turn.prompt.evaluated, 0);
  return { where, threads, generated, msPerToken: sampling / generated, promptMsPer1k: (prompt / evaluated) * 1000, answer: result.answer };
};

const models: Array<[string, string]> = [
  ["trained default (4.8M, 425-token vocabulary, Q8_0)", "models/narrowgauge-weather.q8_0.gguf"],
  ["Qwen3 tokenizer forged, tiny dimensions (151,669-token vocabulary)", await forgedModelFile("qwen3")],
];
const server = await serveStatic(await buildDemo(), { cache: narrowgaugeCacheDir() });
const browser = await launchChromium();
try {
  for (const [name, file] of models) {
    const rows: Row[] = [];
    for (const threads of [1, 2]) {
      const page = await browser.newPage();
      const where = file.startsWith("models/") ? "./models/" : "./cache/";
      await page.goto(`${server.url}?threads=${threads}&model=${where}${basename(file)}`);
      await page.waitForFunction(() => (document.getElementById("run-result")?.textContent ?? "") !== "" || !document.getElementById("error")!.hidden, null, { timeout: 600_000 });
      const pageThreads = Number((await page.textContent("#status"))?.match(/(\d+) thread/)?.[1] ?? threads);
      rows.push(measure("page (WASM)", pageThreads, JSON.parse((await page.textContent("#run-result"))!) as RunResult));
      await page.close();
      const model = await loadModel(file, { threads, contextSize: 4096, sequences: 1 });
      rows.push(measure("Node (native)", threads, await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "sub1b", maxTurns: 6 })));
      await model.dispose();
    }
    console.log(`\n${name}\n| where | threads | tokens | ms/token | prompt ms/1k tokens | answer |\n| --- | --- | --- | --- | --- | --- |`);
    for (const row of rows) console.log(`| ${row.where} | ${row.threads} | ${row.generated} | ${row.msPerToken.toFixed(1)} | ${row.promptMsPer1k.toFixed(0)} | ${(row.answer ?? "none").slice(0, 48)} |`);
    for (const threads of [1, 2]) {
      const [inPage, inNode] = [rows.find((row) => row.threads === threads && row.where.startsWith("page")), rows.find((row) => row.threads === threads && row.where.startsWith("Node"))];
      if (inPage && inNode) console.log(`page ÷ Node at ${threads} thread(s): ${(inPage.msPerToken / inNode.msPerToken).toFixed(1)}× per token, ${(inPage.promptMsPer1k / inNode.promptMsPer1k).toFixed(1)}× per prompt token`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
