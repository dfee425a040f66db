import { runAgent, type JumpForwardMode, type ModelPort, type TurnRecord } from "../../index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";

/** What the demo's tool-call steps cost under one jump-forward mode. */
export interface StepCost {
  steps: number;
  tokens: number;
  forced: number;
  evaluations: number;
  /** Prompt evaluation and sampling of those steps, in ms. */
  ms: number;
}

const TASKS = [WEATHER_TASK, "How warm is Tokyo in Fahrenheit?"];

const isToolCall = (turn: TurnRecord) => turn.step !== null && turn.step.call.tool !== "FinalAnswer";

/**
 * The demo's tasks, greedy, thoughts capped at 40 code points (a random
 * model fills every free field to its cap; a trained one does not), and the
 * tool-call steps they took: tokens, forced tokens, model evaluations, ms.
 */
export async function toolCallSteps(model: ModelPort, jumpForward: JumpForwardMode): Promise<StepCost> {
  const cost: StepCost = { steps: 0, tokens: 0, forced: 0, evaluations: 0, ms: 0 };
  for (const task of TASKS) {
    const result = await runAgent({ model, tools: weatherTools, task, maxTurns: 3, thoughtMaxLength: 40, answerMaxLength: 120, sampling: { temperature: 0 }, jumpForward });
    for (const turn of result.turns.filter(isToolCall)) {
      cost.steps++;
      cost.tokens += turn.generatedTokens;
      cost.forced += turn.decoding.forcedTokens;
      cost.evaluations += turn.decoding.evaluations;
      cost.ms += turn.ms.prompt + turn.ms.sampling;
    }
  }
  return cost;
}

/** Decode evaluations ÷ emitted tokens with jump-forward, and the steps' wall time with it ÷ without (sampled) and ÷ unbatched. */
export async function jumpForwardRatios(model: ModelPort): Promise<{ decodesPerToken: number; overPlain: number; overUnbatched: number; batched: StepCost; plain: StepCost }> {
  // A first run warms the caches (grammar, matcher) so no mode pays for them.
  await toolCallSteps(model, "batched");
  const batched = await toolCallSteps(model, "batched");
  const unbatched = await toolCallSteps(model, "unbatched");
  const plain = await toolCallSteps(model, "off");
  const perStep = (cost: StepCost) => cost.ms / Math.max(1, cost.steps);
  return {
    decodesPerToken: batched.evaluations / Math.max(1, batched.tokens),
    overPlain: perStep(batched) / perStep(plain),
    overUnbatched: perStep(batched) / perStep(unbatched),
    batched,
    plain,
  };
}
