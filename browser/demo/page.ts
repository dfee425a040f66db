/// <reference lib="dom" />
import { loadPageModel, ModelLoadError, NarrowgaugeError, renderTrace, runAgent, type BrowserModelPort, type RunEvent, type RunResult } from "../index.js";
import * as narrowgauge from "../index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";

/**
 * The weather demo in a page: the trained default model served beside the
 * page (or a .gguf picked from disk), the thought and answer streaming in as
 * they are sampled, a stop button, the trace view when the run ends and the
 * RunResult as JSON in #run-result. Query: `?model=<url>` another model,
 * `?task=…`, `?autorun=0` to wait for the Run button, `?spy=1` to record prompts.
 */
const query = new URLSearchParams(location.search);
const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const [status, error, stream, result] = [element("status"), element("error"), element("stream"), element("run-result")];
const trace = element<HTMLIFrameElement>("trace");
const [runButton, stopButton] = [element<HTMLButtonElement>("run"), element<HTMLButtonElement>("stop")];
const taskInput = element<HTMLInputElement>("task");
taskInput.value = query.get("task") ?? WEATHER_TASK;
const absolute = (path: string) => new URL(path, location.href).href;
const WASM = { "single-thread/wllama.wasm": absolute("./wasm/single-thread.wasm"), "multi-thread/wllama.wasm": absolute("./wasm/multi-thread.wasm") };

let model: BrowserModelPort | null = null;
let running: AbortController | null = null;

function showError(failure: unknown): void {
  const code = failure instanceof NarrowgaugeError ? (failure as NarrowgaugeError & { code?: string }).code : undefined;
  error.hidden = false;
  error.dataset.code = code ?? "error";
  error.textContent = `${code ?? (failure instanceof Error ? failure.name : "error")}: ${failure instanceof Error ? failure.message : String(failure)}`;
}

async function load(source: string | Blob): Promise<void> {
  runButton.disabled = true;
  error.hidden = true;
  status.textContent = `loading ${typeof source === "string" ? source : (source as File).name}…`;
  await model?.dispose();
  model = null;
  try {
    const threads = Number(query.get("threads") ?? 1);
    model = await loadPageModel({ model: source, wasm: WASM, threads, contextSize: Number(query.get("context") ?? 4096) });
    status.textContent = `${model.description.name} · ${model.description.wrapper} format · ${model.description.threads} thread(s)`;
    status.dataset.loaded = "true";
    runButton.disabled = false;
  } catch (failure) {
    status.textContent = "no model loaded";
    showError(failure);
    if (!(failure instanceof ModelLoadError)) throw failure;
  }
}

/** Streams the thought and the answer as they are sampled, one line per turn and field. */
function onEvent(event: RunEvent): void {
  if (event.type !== "text") return;
  const id = `turn-${event.index}-${event.field}`;
  let line = document.getElementById(id);
  if (!line) {
    stream.insertAdjacentHTML("beforeend", `<div class="field">turn ${event.index} · ${event.field}</div><div class="text" id="${id}"></div>`);
    line = document.getElementById(id)!;
  }
  line.textContent += event.text;
  stream.dataset.streamed = String(Number(stream.dataset.streamed ?? 0) + 1);
}

async function run(): Promise<void> {
  if (!model || running) return;
  running = new AbortController();
  [runButton.disabled, stopButton.disabled] = [true, false];
  stream.replaceChildren();
  delete stream.dataset.streamed;
  result.textContent = "";
  status.dataset.running = "true";
  const outcome: RunResult = await runAgent({ model, tools: weatherTools, task: taskInput.value, profile: "sub1b", maxTurns: 6, signal: running.signal, onEvent, spy: query.get("spy") === "1" });
  result.textContent = JSON.stringify(outcome, null, 1);
  trace.srcdoc = renderTrace(outcome);
  delete status.dataset.running;
  running = null;
  [runButton.disabled, stopButton.disabled] = [false, true];
}

/** For the console and for scripts (the browser tests): narrowgauge/browser itself, the demo's tools and the loaded model. */
Object.assign(window, { narrowgauge: { api: narrowgauge, tools: weatherTools, model: () => model } });

runButton.addEventListener("click", () => void run().catch(showError));
stopButton.addEventListener("click", () => running?.abort());
element<HTMLInputElement>("model-file").addEventListener("change", (event) => {
  const file = (event.target as HTMLInputElement).files?.[0];
  if (file) void load(file).catch(showError);
});

await load(absolute(query.get("model") ?? "./models/narrowgauge-weather.q8_0.gguf")).catch(showError);
if (model && query.get("autorun") !== "0") await run().catch(showError);
