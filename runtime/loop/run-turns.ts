import { callItem, feedbackItem } from "../history/history-items.js";
import { ContextOverflowError } from "../model/context-overflow.js";
import type { PortGeneration } from "../model/model-port.js";
import { actOnCall } from "./act-on-call.js";
import { actOnFinal } from "./act-on-final.js";
import { judgeFreshnessFirst } from "./freshness-first.js";
import { interpretStep, invalidStepFeedback, type StepOutcome } from "./interpret-step.js";
import type { RunContext } from "./run-context.js";
import type { RunResult } from "./run-types.js";
import { sampleStep } from "./sample-step.js";
import { TurnBuilder } from "./turn-builder.js";
import { prepareTurnInput, type TurnInput } from "./turn-input.js";

const sameTokens = (left: readonly number[], right: readonly number[]) =>
  left.length === right.length && left.every((token, index) => token === right[index]);

/** Ends a run whose model could not be run: aborted if the signal fired, else by what failed. */
export function endOnFailure(context: RunContext, error: unknown): RunResult {
  if (context.config.signal.aborted) return context.run.end("aborted");
  return context.run.end(error instanceof ContextOverflowError ? "context-overflow" : "model-error", { error });
}

/** The turns of a run whose session is open. */
export async function runTurns(context: RunContext): Promise<RunResult> {
  const { config, state, run, history } = context;
  const { signal, maxTurns } = config;
  const failure = (error: unknown) => endOnFailure(context, error);
  const freshness = await judgeFreshnessFirst(context);
  if (freshness) return failure(freshness.error);
  let previous: TurnInput | undefined;

  for (let index = 1; index <= maxTurns; index++) {
    if (signal.aborted) return run.end("aborted");
    state.turn = index;
    let input = prepareTurnInput(context, state);
    state.nudged = false; // a nudge binds one turn
    // G9: an identical prompt and grammar would reproduce the previous output. Escalate once, then stop.
    if (previous && previous.gbnf === input.gbnf && sameTokens(previous.prompt, input.prompt)) {
      if (!config.profile.forcedFinal || input.view.forcedFinal) return run.end("stalled");
      state.stalled = true;
      input = prepareTurnInput(context, state);
    }
    previous = input;
    const turn = startTurn(context, input);

    let generation: PortGeneration;
    try {
      generation = await sampleStep(context, input);
    } catch (error) {
      return failure(error);
    }
    turn.generation(generation);
    const outcome = interpretStep(generation, input.schema, context.registry);
    recordStep(turn, outcome);
    run.emit({ type: "step", index, raw: turn.record.raw, step: turn.record.step, failure: turn.record.failure });

    if (outcome.kind === "aborted") return run.end("aborted");
    if (outcome.kind === "invalid") {
      turn.record.check = "invalid";
      if (config.feedbackOnInvalid) history.push(feedbackItem(invalidStepFeedback(outcome.error, input.view)));
    } else if (outcome.kind === "final") {
      const action = await actOnFinal(context, outcome, turn, input);
      if (action.kind === "model-error") return failure(action.error);
      if (action.kind === "accept") {
        run.commit(turn);
        return run.answer(action);
      }
      history.push(feedbackItem(action.note));
    } else {
      const attempt = await actOnCall(context, outcome, turn, input);
      if (attempt === "aborted") {
        run.commit(turn);
        return run.end("aborted");
      }
      state.calls = [...state.calls, attempt];
      history.push(callItem(outcome.step.thought, attempt.name, attempt.args, attempt.result));
    }
    run.commit(turn);
  }
  return run.end("max-turns");
}

function startTurn(context: RunContext, input: TurnInput): TurnBuilder {
  const visible = { tools: input.view.tools, final: input.view.final, enums: input.view.enums };
  const turn = new TurnBuilder(context.state.turn, visible, input.decisions);
  turn.record.ms.grammar = input.ms.grammar;
  turn.record.ms.render = input.ms.render;
  if (context.config.spy) turn.record.spy = { prompt: context.config.model.detokenizeForSpy(input.prompt), tokens: input.prompt.length, grammar: input.gbnf };
  context.run.emit({ type: "turn-start", index: context.state.turn, visible });
  return turn;
}

function recordStep(turn: TurnBuilder, outcome: StepOutcome): void {
  if (outcome.kind === "final" || outcome.kind === "call") turn.record.step = outcome.step;
  if (outcome.kind === "invalid" || outcome.kind === "bad-arguments") {
    turn.record.failure = { code: outcome.error.code, message: outcome.error.message };
  }
}
