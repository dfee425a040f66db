import { loadModel, runAgent, type RunResult } from "../../index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import type { LlamaShape } from "../../runtime/gguf/forge/forge-tiny-model.js";
import { forgedTemplateModel, TEMPLATE_MODELS } from "./template-models.js";
import { readCallFrame } from "../../runtime/format/call-frame.js";
import { chooseCodec } from "../../runtime/codec/choose-codec.js";

/** One template's format, measured over runs of the weather task on its forged model. */
export interface TemplateFormat {
  template: string;
  tokenizer: string;
  wrapper: string;
  codec: string;
  /** Whether a step carries its thought: json does, native where the format keeps text beside a call. */
  thought: boolean;
  runs: number;
  /** Call steps a later turn followed. */
  steps: number;
  /** Of those, steps the next prompt shows exactly as generated, right after the generation prompt they were generated from. */
  rendered: number;
  /**
   * Of those, steps the next prompt shows exactly as generated where the
   * template drops the end of the generation prompt they followed (Gemma 4's
   * empty thought channel before the first call): the step begins where the
   * two prompts part.
   */
  movedPrompt: number;
  /** Turns after the first. */
  laterTurns: number;
  /** Of those, turns whose prompt extends what the session held (the previous prompt and the step as sampled). */
  extending: number;
  /** Tokens evaluated and appended over the extending later turns. */
  evaluated: number;
  appended: number;
  /** Prompt tokens at turn 1 (the first run's). */
  firstPrompt: number;
  statuses: string[];
}

/** How much of the previous prompt's end the next prompt must show right before the step: the generation prompt's tail. */
const OPENING = 12;

/** How far before the prompts part a step after a moved generation prompt may begin. */
const MOVED_WINDOW = 64;

function commonPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && a[length] === b[length]) length++;
  return length;
}

function tally(result: RunResult, row: TemplateFormat): void {
  const turns = result.turns;
  for (const [index, turn] of turns.entries()) {
    if (index === 0) continue;
    row.laterTurns++;
    if (turn.prompt.appended !== null) {
      row.extending++;
      row.evaluated += turn.prompt.evaluated;
      row.appended += turn.prompt.appended;
    }
    const previous = turns[index - 1]!;
    if (!previous.tool || !previous.spy || !turn.spy || previous.raw === "") continue;
    row.steps++;
    if (turn.spy.prompt.includes(previous.spy.prompt.slice(-OPENING) + previous.raw)) row.rendered++;
    else {
      // The step begins where the prompts part, or shortly before (it may open as the dropped text did: `<|`, `<|channel>thought\n`).
      const parting = commonPrefix(previous.spy.prompt, turn.spy.prompt);
      const at = turn.spy.prompt.indexOf(previous.raw, Math.max(0, parting - MOVED_WINDOW));
      if (at >= 0 && at <= parting) row.movedPrompt++;
    }
  }
}

/** Runs the weather task on a corpus template's forged model, seeds 1..runs at temperature 1. */
export async function measureTemplate(template: string, options: { runs: number; maxTurns: number; shape?: LlamaShape }): Promise<TemplateFormat> {
  const port = await loadModel(await forgedTemplateModel(template, options.shape ? { shape: options.shape } : {}), { sequences: 1 });
  const frame = readCallFrame(port);
  const row: TemplateFormat = { template, tokenizer: TEMPLATE_MODELS[template]!.tokenizer, wrapper: port.description.wrapper, codec: "", thought: chooseCodec(port, undefined).name !== "native" || (frame.ok && frame.frame.keepsThought), runs: options.runs, steps: 0, rendered: 0, movedPrompt: 0, laterTurns: 0, extending: 0, evaluated: 0, appended: 0, firstPrompt: 0, statuses: [] };
  try {
    for (let seed = 1; seed <= options.runs; seed++) {
      const result = await runAgent({ model: port, tools: weatherTools, task: WEATHER_TASK, maxTurns: options.maxTurns, spy: true, sampling: { temperature: 1, seed } });
      row.statuses.push(result.status === "failed" ? `failed: ${result.error?.message ?? result.reason}` : result.status);
      const first = result.turns[0];
      if (seed === 1 && first) {
        row.firstPrompt = first.prompt.tokens;
        row.codec = first.spy?.codec ?? "";
      }
      tally(result, row);
    }
  } finally {
    await port.dispose();
  }
  return row;
}
