import { afterRepeat, repeatsLastTurn } from "../../guards/g9-stall.js";
import { appendItems, feedbackItem } from "../history/history-items.js";
import { ContextOverflowError } from "../engine/context-overflow.js";
import type { PortGeneration } from "../engine/model-port.js";
import { actOnCall } from "./act-on-call.js";
import { actOnFinal } from "./act-on-final.js";
import { judgeFreshnessFirst } from "./freshness-first.js";
import { interpretStep, invalidStepFeedback, type StepOutcome } from "./interpret-step.js";
import { groundedNumbers, isGrounded } from "../../guards/facts/grounded-numbers.js";
import type { RunState } from "../../guards/run-state.js";
import { stateOf, type Question } from "./question.js";
import type { RunResult } from "./run-types.js";
import { sampleStep } from "./sample-step.js";
import { TurnBuilder } from "./turn-builder.js";
import { prepareTurn, type TurnInput } from "./turn-input.js";

/** Ends a run whose model could not be run: aborted if the signal fired, else by what failed. */
export function endOnFailure(question: Pick<Question, "config" | "recorder">, error: unknown): RunResult {
  if (question.config.signal.aborted) return question.recorder.end("aborted");
  return question.recorder.end(error instanceof ContextOverflowError ? "context-overflow" : "model-error", { error });
}

/**
 * The turns of a question whose session is open. Each turn: the state
 * derived from the records so far, the guards' view of it, one step, and
 * what the step leads to, appended to the conversation and recorded.
 */
export async function runTurns(question: Question): Promise<RunResult> {
  const { config, recorder, conversation } = question;
  const failure = (error: unknown) => endOnFailure(question, error);
  const freshness = await judgeFreshnessFirst(question);
  if (freshness) return failure(freshness.error);
  let previous: TurnInput | undefined;

  for (let index = 1; index <= config.maxTurns; index++) {
    if (config.signal.aborted) return recorder.end("aborted");
    let { state, input } = fitTurn(question, index);
    // G9: an identical prompt and grammar would reproduce the previous output. Escalate once, then stop.
    const repeated = repeatsLastTurn(previous, input);
    if (repeated) {
      if (afterRepeat(config.profile, input.view) === "end") return recorder.end("stalled");
      ({ state, input } = fitTurn(question, index, true, input.notes));
    }
    previous = input;
    const turn = startTurn(question, index, input, repeated);

    let generation: PortGeneration;
    try {
      generation = await sampleStep(question, input, index);
    } catch (error) {
      return failure(error);
    }
    turn.generation(generation);
    const outcome = interpretStep(generation, input, conversation.registry, config.codec);
    // What the session now holds, as the next prompt will show it: this prompt, and the step only if the history shows it.
    conversation.held = { text: input.rendered.text, tokens: input.prompt };
    recordStep(turn, outcome);
    recorder.emit({ type: "step", index, raw: turn.record.raw, step: turn.record.step, failure: turn.record.failure });

    if (outcome.kind === "aborted") return recorder.end("aborted");
    if (outcome.kind === "invalid") {
      turn.record.check = "invalid";
      if (config.feedbackOnInvalid) conversation.history.push(feedbackItem(invalidStepFeedback(outcome.error, input.view)));
    } else if (outcome.kind === "final") {
      const action = await actOnFinal(question, state, outcome, turn, input);
      if (action.kind === "model-error") return failure(action.error);
      if (action.kind === "accept") {
        recorder.commit(turn);
        return recorder.answer(action);
      }
      conversation.history.push(feedbackItem(action.note));
    } else {
      const attempt = await actOnCall(question, state, outcome, turn, input);
      recorder.commit(turn);
      if (attempt === "aborted") return recorder.end("aborted");
      appendItems(conversation.history, config.codec.callItems(generation.text, outcome.step, attempt), { joinModelTurns: config.codec.verbatim });
      if (config.codec.verbatim && generation.tokens) conversation.held = { text: input.rendered.text + generation.text, tokens: [...input.prompt, ...generation.tokens] };
      continue;
    }
    recorder.commit(turn);
  }
  return recorder.end("max-turns");
}

/**
 * The turn's state and input. Where the prompt leaves the exchanges it
 * drops out, they leave the conversation's prompt for good, and the state
 * is derived again without them (their numbers no longer ground, which can
 * change the grammar), until a prompt drops nothing more. A prompt that then
 * still leaves no room for a step and the final's reserve after it is
 * prepared once more as low on context, so the final is forced while it
 * still fits.
 */
function fitTurn(question: Question, index: number, stalled = false, noted: readonly string[] = []): { state: RunState; input: TurnInput } {
  const { config, conversation, recorder } = question;
  const contextSize = config.model.description.contextSize;
  for (let lowOnContext = false; ; ) {
    const state = stateOf(question, stalled, lowOnContext);
    const input = prepareTurn(question, state, noted);
    if (!input.drop) {
      // Nothing more can leave, and the prompt leaves no room for a step and then the final: G8 forces the final now.
      if (lowOnContext || contextSize === null || contextSize - input.prompt.length >= 2 * input.reserve) return { state, input };
      lowOnContext = true;
      continue;
    }
    const tasks = conversation.earlier.slice(conversation.dropped, input.drop.dropped).map((exchange) => exchange.task);
    conversation.dropped = input.drop.dropped;
    const still = groundedNumbers(stateOf(question, stalled));
    const forgottenNumbers = groundedNumbers(state).filter((number) => !isGrounded(number, still));
    recorder.drop({ turn: index, tasks, tokens: input.drop.tokens, keptTokens: input.drop.keptTokens, forgottenNumbers });
  }
}

/** A turn begins: its new notes join the conversation, and its record starts with what the grammar allows. */
function startTurn(question: Question, index: number, input: TurnInput, repeated: boolean): TurnBuilder {
  const { config, recorder, conversation } = question;
  conversation.history.push(...input.notes.map(feedbackItem));
  const visible = { tools: input.view.tools, final: input.view.final, enums: input.view.enums };
  const turn = new TurnBuilder(index, visible, input.decisions, input.notes, repeated);
  turn.record.ms.grammar = input.ms.grammar;
  turn.record.ms.render = input.ms.render;
  turn.record.prompt.appended = input.rendered.appended;
  if (config.spy) turn.record.spy = { prompt: config.model.detokenizeForSpy(input.prompt), tokens: input.prompt.length, grammar: input.gbnf, codec: config.codec.name };
  recorder.emit({ type: "turn-start", index, visible });
  return turn;
}

function recordStep(turn: TurnBuilder, outcome: StepOutcome): void {
  if (outcome.kind === "final" || outcome.kind === "call") turn.record.step = outcome.step;
  if (outcome.kind === "invalid" || outcome.kind === "bad-arguments") {
    turn.record.failure = { code: outcome.error.code, message: outcome.error.message };
  }
}
