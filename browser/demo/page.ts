/// <reference lib="dom" />
import { loadPageModel, ModelLoadError, NarrowgaugeError, renderTrace, runAgent, type BrowserModelPort, type RunEvent, type RunResult } from "../index.js";
import * as narrowgauge from "../index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { loadingLine, RunProgress } from "./progress-line.js";

/**
 * The weather demo in a page: the trained default model served beside the
 * page (or a .gguf picked from disk), the thought and answer streaming in as
 * they are sampled, a stop button, the trace view when the run ends and the
 * RunResult as JSON in #run-result. #status says how far the model has
 * loaded, #progress what the run is doing (the turn, the prompt being read,
 * the field being written): a first prompt is read for tens of seconds
 * before anything streams. Query: `?model=<url>` another model,
 * `?task=…`, `?autorun=0` to wait for the Run button, `?spy=1` to record prompts.
 */
const query = new URLSearchParams(location.search);
const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const [status, progress, error, stream, result] = [element("status"), element("progress"), element("error"), element("stream"), element("run-result")];
const trace = element<HTMLIFrameElement>("trace");
const [runButton, stopButton] = [element<HTMLButtonElement>("run"), element<HTMLButtonElement>("stop")];
const taskInput = element<HTMLInputElement>("task");
taskInput.value = query.get("task") ?? WEATHER_TASK;
const absolute = (path: string) => new URL(path, location.href).href;
const WASM = { "single-thread/wllama.wasm": absolute("./wasm/single-thread.wasm"), "multi-thread/wllama.wasm": absolute("./wasm/multi-thread.wasm") };

let model: BrowserModelPort | null = null;
let running: AbortController | null = null;
const runProgress = new RunProgress();

function showError(failure: unknown): void {
  const code = failure instanceof NarrowgaugeError ? (failure as NarrowgaugeError & { code?: string }).code : undefined;
  error.hidden = false;
  error.dataset.code = code ?? "error";
  error.textContent = `${code ?? (failure instanceof Error ? failure.name : "error")}: ${failure instanceof Error ? failure.message : String(failure)}`;
}

async function load(source: string | Blob): Promise<void> {
  runButton.disabled = true;
  error.hidden = true;
  const name = typeof source === "string" ? source.split("/").pop()! : (source as File).name;
  status.textContent = `loading the model ${name}…`;
  await model?.dispose();
  model = null;
  try {
    const threads = Number(query.get("threads") ?? 1);
    model = await loadPageModel({
      model: source,
      wasm: WASM,
      threads,
      contextSize: Number(query.get("context") ?? 4096),
      onLoad: (loading) => (status.textContent = loadingLine(name, loading)),
      // Only this page's own runs: a script's runs on the model (the browser tests') have no turn to report.
      onPrompt: (reading) => {
        if (running) progress.textContent = runProgress.prompt(reading);
      },
    });
    status.textContent = `${model.description.name} · ${model.description.wrapper} format · ${model.description.threads} thread(s)`;
    status.dataset.loaded = "true";
    runButton.disabled = false;
  } catch (failure) {
    status.textContent = "no model loaded";
    showError(failure);
    if (!(failure instanceof ModelLoadError)) throw failure;
  }
}

/** A new element of the page, its text set as text. */
function add(parent: HTMLElement, className: string, text: string): HTMLElement {
  const child = parent.appendChild(document.createElement("div"));
  child.className = className;
  child.textContent = text;
  return child;
}

/** Says what the run is doing in #progress, and streams the thought and the answer as they are sampled, one line per turn and field. */
function onEvent(event: RunEvent): void {
  progress.textContent = runProgress.event(event);
  if (event.type !== "text") return;
  const id = `turn-${event.index}-${event.field}`;
  let line = document.getElementById(id);
  if (!line) {
    add(stream, "field", `turn ${event.index} · ${event.field}`);
    line = add(stream, "text", "");
    line.id = id;
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
