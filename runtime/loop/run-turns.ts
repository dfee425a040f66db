import type { SampledInput } from "../../guards/guard.js";
import { groundedNumbers, isGrounded } from "../../guards/facts/grounded-numbers.js";
import type { RunState } from "../../guards/run-state.js";
import { heldAfterStep } from "../history/held-prompt.js";
import { appendItems, appendNotes, feedbackItem } from "../history/history-items.js";
import type { PortGeneration } from "../engine/model-port.js";
import { askJudgement } from "../judgements/ask-judgement.js";
import { actOnCall } from "./act-on-call.js";
import { actOnFinal } from "./act-on-final.js";
import { finishTurn, invalidAction, type TurnAction, type TurnGathered } from "./finish-turn.js";
import { interpretStep, invalidStepFeedback } from "./interpret-step.js";
import { judgementOptions, stateOf, type Question } from "./question.js";
import { endOf } from "./run-endings.js";
import type { RunRecorder } from "./run-recorder.js";
import type { RunEndReason, RunResult } from "./run-types.js";
import { sampleStep } from "./sample-step.js";
import { prepareTurn, type TurnInput } from "./turn-input.js";
import { leavesRoom, leavesStepAndFinal } from "../engine/context-budget.js";

/** The result of a question whose log has ended (a run's or an ask's: they hand no call off, see Question.handsOffCalls). */
export function resultOf(question: Pick<Question, "config" | "recorder">): RunResult {
  return question.recorder.result(endOf(question.recorder.log, question.config) as RunEndReason);
}

/**
 * The turns of a question whose session is open: first the questions the
 * guards put to the model before the run (A2), then one turn at a time until
 * a rule of the run's endings holds over the log (see RUN_ENDINGS).
 */
export async function runTurns(question: Question): Promise<RunResult> {
  await playTurns(question);
  return resultOf(question);
}

/**
 * Runs the question's turns until one of the run's endings holds (a call
 * handed off among them, see Question.handsOffCalls); what happened is in
 * the recorder's log.
 */
export async function playTurns(question: Question): Promise<void> {
  const { config, recorder } = question;
  try {
    for (const { guard, request } of config.registry.judgementRequests(stateOf(question))) {
      recorder.judgement(await askJudgement(config.model, request, guard, judgementOptions(question, 0)));
    }
  } catch (error) {
    recorder.append({ kind: "failure", error });
  }
  let last: SampledInput | undefined;
  while (endOf(recorder.log, config) === null) {
    try {
      last = await runTurn(question, last);
    } catch (error) {
      // The model could not be run (rendering, tokenizing, sampling, a question), or a guard of the caller's threw: nothing throws past the loop.
      recorder.append({ kind: "failure", error });
    }
  }
}

/**
 * One turn: the state derived from the records so far, the guards' view of
 * it, the turn as prepared put to the guards (would it repeat the last?),
 * one step sampled, and what it leads to, appended to the
 * conversation and to the log, where its record is made once. Returns what
 * the turn sampled from, for the next turn's comparison.
 */
async function runTurn(question: Question, last: SampledInput | undefined): Promise<SampledInput | undefined> {
  const { config, recorder, conversation } = question;
  const index = recorder.factsSoFar.length + 1;
  let { state, input } = fitTurn(question, index);
  const { go, guard } = config.registry.beforeTurn(state, { last, next: input, view: input.view });
  if (go === "end") return void recorder.append({ kind: "stalled", guard: guard! });
  if (go === "again") ({ state, input } = fitTurn(question, index, true, input.notes));
  const started = performance.now();
  appendNotes(conversation.history, input.notes, conversation.resultUnshown);
  conversation.resultUnshown = false;
  const visible = { tools: input.view.tools, final: input.view.final, enums: input.view.enums };
  recorder.emit({ type: "turn-start", index, visible });
  const spy = config.spy ? { prompt: config.model.detokenizeForSpy(input.prompt), tokens: input.prompt.length, grammar: input.gbnf, codec: config.codec.name } : undefined;

  const generation: PortGeneration = await sampleStep(question, input, index);
  const outcome = interpretStep(generation, input, conversation.registry, config.codec, config.answerSchema);
  // What the session now holds, as the next prompt will show it: this prompt, and the step only if the history shows it.
  conversation.held = { text: input.rendered.text, tokens: input.prompt };
  const step = outcome.kind === "final" || outcome.kind === "call" ? outcome.step : null;
  const failure = outcome.kind === "invalid" || outcome.kind === "bad-arguments" ? { code: outcome.error.code, message: outcome.error.message } : null;
  recorder.emit({ type: "step", index, raw: generation.text, step, failure });
  if (outcome.kind === "aborted") return void recorder.append({ kind: "aborted" });

  const gathered = (action: TurnAction): TurnGathered => ({ index, input, repeated: go === "again", generation, outcome, action, started, ...(spy ? { spy } : {}) });
  if (outcome.kind === "invalid") {
    if (config.feedbackOnInvalid) conversation.history.push(feedbackItem(invalidStepFeedback(outcome.error, input.view)));
    recorder.append({ kind: "turn", ...finishTurn(gathered(invalidAction()), conversation.registry.naming) });
  } else if (outcome.kind === "final") {
    const act = await actOnFinal(question, state, outcome, input);
    if (act.note !== undefined) conversation.history.push(feedbackItem(act.note));
    recorder.append({ kind: "turn", ...finishTurn(gathered(act.action), conversation.registry.naming), ...(act.answer ? { answer: act.answer } : {}) });
  } else {
    const act = await actOnCall(question, state, outcome, input, generation.text);
    recorder.append({ kind: "turn", ...finishTurn(gathered(act), conversation.registry.naming), ...(act.aborted ? { aborted: true as const } : {}) });
    if (act.aborted || act.handedOff) return input;
    appendItems(conversation.history, config.codec.callItems(generation.text, outcome.step, act.attempt!, input.parts.callNumber), { joinModelTurns: config.codec.verbatim });
    conversation.resultUnshown = config.codec.notesInResults;
    if (config.codec.verbatim && generation.tokens) conversation.held = heldAfterStep(config.model, conversation.held, { text: generation.text, tokens: generation.tokens });
  }
  return input;
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
      // Nothing more can leave, and the prompt leaves no room for a step and then the final: the final is forced now (G8).
      if (leavesStepAndFinal(contextSize, input.prompt.length, input.reserve)) return { state, input };
      if (lowOnContext) {
        // The forced final's notes must not be what leaves it no room: without them, the grammar alone forces it.
        if (leavesRoom(contextSize, input.prompt.length, input.shortestStep) || input.notes.length === 0) return { state, input };
        return { state, input: prepareTurn(question, state, [...noted, ...input.notes]) };
      }
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
