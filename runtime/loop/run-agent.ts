import { callItem, feedbackItem } from "../history/history-items.js";
import { ContextOverflowError } from "../model/context-overflow.js";
import type { ModelSession, PortGeneration } from "../model/model-port.js";
import { actOnCall } from "./act-on-call.js";
import { actOnFinal } from "./act-on-final.js";
import { judgeFreshnessFirst } from "./freshness-first.js";
import { interpretStep, invalidStepFeedback, type StepOutcome } from "./interpret-step.js";
import { resolveRunConfig, type RunAgentOptions } from "./run-config.js";
import { createRunContext, withinContext, type RunContext } from "./run-context.js";
import type { RunResult } from "./run-types.js";
import { sampleStep } from "./sample-step.js";
import { TurnBuilder } from "./turn-builder.js";
import { prepareTurnInput, type TurnInput } from "./turn-input.js";

const sameTokens = (left: readonly number[], right: readonly number[]) =>
  left.length === right.length && left.every((token, index) => token === right[index]);

/**
 * Runs one task to a grounded answer or an honest failure. Each turn: the
 * guards read the run state and decide what is visible, the step schema and
 * grammar follow, the native history is rendered, one step is sampled, and
 * checks decide whether its call runs or its answer stands. Never throws for
 * anything the model or a tool does; configuration errors (duplicate tool
 * names, an unknown profile, a schema the grammar cannot hold) throw before
 * any model call.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const context = createRunContext(resolveRunConfig(options));
  const { config, state, run } = context;
  run.emit({ type: "run-start", task: state.task, tools: context.registry.names, maxTurns: config.maxTurns, model: config.model.description });
  let session: ModelSession;
  try {
    // A session of the run's own: concurrent runs never share a KV cache, and wait (abortably) when none is free.
    session = await config.model.openSession(config.signal);
  } catch (error) {
    return endOnFailure(context, error);
  }
  context.session = withinContext(session, config.model.description.contextSize);
  try {
    return await runTurns(context);
  } finally {
    session.close();
  }
}

/** Ends a run whose model could not be run: aborted if the signal fired, else by what failed. */
function endOnFailure(context: RunContext, error: unknown): RunResult {
  if (context.config.signal.aborted) return context.run.end("aborted");
  return context.run.end(error instanceof ContextOverflowError ? "context-overflow" : "model-error", { error });
}

/** The turns of a run whose session is open. */
async function runTurns(context: RunContext): Promise<RunResult> {
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
        return run.end("final-answer", action);
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
