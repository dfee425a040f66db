import type { HistoryItem } from "../../base/chat-history.js";
import { domainsOf } from "../../guards/facts/enum-domains.js";
import type { GuardDecision, View } from "../../guards/guard.js";
import type { RunState } from "../../guards/run-state.js";
import { narrowNestedNumbers } from "../../schemas/nested-numbers.js";
import { narrowParams } from "../../schemas/narrow-params.js";
import { narrowAnswerSchema } from "../../schemas/answer-narrowing.js";
import { stepParts, type StepParts, type StepSchemaOptions, type ToolSchemaSpec } from "../../schemas/step-schema.js";
import { appendNotes } from "../history/history-items.js";
import { nextPrompt } from "../history/held-prompt.js";
import { renderContext } from "../history/render-history.js";
import { callsIn, withoutDroppedEnd } from "../codec/prompt-end.js";
import { commonPrefixLength } from "../engine/common-prefix.js";
import { shortestStepTokens } from "../history/shortest-step.js";
import { shownHistory, type Question } from "./question.js";
import { roomStringLength } from "../../schemas/room-string-length.js";
import { leavesStepAndFinal, stepReserve, stringRoom, textCaps } from "../engine/context-budget.js";

export interface TurnInput {
  view: View;
  decisions: GuardDecision[];
  /** The step's one representation: its thought and branches (its schema is read off them: stepSchemaOf). */
  parts: StepParts;
  gbnf: string;
  prompt: readonly number[];
  /** The prompt's text as rendered, and how many of its tokens come after what the session held (null: an earlier part was rendered anew). */
  rendered: { text: string; appended: number | null };
  /** Guard notes new this turn: the prompt shows them after the conversation, in the last call's result where no prompt showed it yet (see appendNotes; each note once per question). */
  notes: string[];
  /** Tokens of the shortest complete step the grammar allows: the least the context must leave (see stepBudget). */
  shortestStep: number;
  /**
   * Tokens kept for one step: `stepReserve` (at most maxTokensPerStep), or
   * the shortest step if more. A turn that is not the last needs room for
   * its step and then the final's: twice this (see fitTurn, stepBudget).
   */
  reserve: number;
  /** Tokens the step leaves free for the final after it: the reserve, or none on a final forced or low on context. */
  keep: number;
  /**
   * Earlier exchanges this prompt leaves out that the conversation still
   * showed (null: none): how many are out now, the tokens they took, and the
   * prompt tokens before the first of them (which the KV cache keeps).
   */
  drop: { dropped: number; tokens: number; keptTokens: number } | null;
  /** Milliseconds building the schema and grammar, and rendering the prompt. */
  ms: { grammar: number; render: number };
}

/**
 * The prompt: the conversation (with `appended` items, not yet in it) as the
 * strategy shows it, then `extra` items as they are (a follow-up call's
 * context), rendered and tokenized.
 */
export function renderShown(question: Pick<Question, "config" | "conversation">, appended: readonly HistoryItem[], extra: readonly HistoryItem[] = []): readonly number[] {
  return renderShownPrompt(question, { appended, extra }).tokens;
}

/**
 * renderShown with the rendered text, and with the session's held tokens
 * kept where the text extends them and the codec shows steps verbatim; the
 * turn's guard `notes` (not yet in the conversation) where appendNotes puts
 * them; `dropped` earlier exchanges left out (the conversation's own count
 * unless given).
 */
function renderShownPrompt(
  question: Pick<Question, "config" | "conversation">,
  { notes = [], appended = [], extra = [] }: { notes?: readonly string[]; appended?: readonly HistoryItem[]; extra?: readonly HistoryItem[] },
  dropped = question.conversation.dropped,
) {
  const { config, conversation } = question;
  const shown = [...shownHistory({ ...conversation, dropped })];
  appendNotes(shown, notes, conversation.resultUnshown);
  const history = [...config.strategy.showHistory([...shown, ...appended]), ...extra];
  const rendered = withoutDroppedEnd(renderContext(config.model.chatRenderer, history, conversation.functions, { continueAfterCall: config.codec.verbatim }), history, config.codec);
  return { ...nextPrompt(config.model, rendered, conversation.held, config.codec.verbatim), llamaText: rendered, callsShown: callsIn(history) };
}

/**
 * The prompt, with as many more of the earliest exchanges left out as it
 * takes to leave the context room for a step and, after it, the final's
 * (`reserve` tokens each; see fitTurn), never the system message, the
 * tool documentation or the current question. Each exchange is whole: a
 * question, its steps and its answer.
 */
function fittedPrompt(question: Pick<Question, "config" | "conversation">, notes: readonly string[], first: ReturnType<typeof renderShownPrompt>, reserve: number) {
  const { config, conversation } = question;
  const contextSize = config.model.description.contextSize;
  let prompt = first;
  let dropped = conversation.dropped;
  while (!leavesStepAndFinal(contextSize, prompt.tokens.length, reserve) && dropped < conversation.exchanges.length - 1) {
    prompt = renderShownPrompt(question, { notes }, ++dropped);
  }
  const drop = dropped === conversation.dropped ? null : { dropped, tokens: first.tokens.length - prompt.tokens.length, keptTokens: commonPrefixLength(first.tokens, prompt.tokens) };
  return { prompt, drop };
}

/**
 * Everything a turn samples from: the guards' view (state → guards → view),
 * the step schema built from it with narrowed domains, its grammar, and the
 * native prompt with the view's new notes appended. Guards change the grammar
 * and append; they never touch earlier prompt text. Where the context cannot
 * hold the prompt beside a step and the final's reserve, the earliest
 * exchanges are left out (`drop`);
 * on a turn low on context (G8 forces the final), the free text is capped to
 * the room left. A tool argument string without maxLength is bounded by
 * runAgent's defaultMaxLength, or else by the step's room (roomStringLength).
 * Pure: nothing is appended to the conversation until the turn runs.
 */
export function prepareTurn(question: Pick<Question, "config" | "conversation">, state: RunState, noted: readonly string[] = []): TurnInput {
  const { config, conversation } = question;
  const { view, decisions } = config.registry.view(state);
  const given = new Set([...state.turns.flatMap((turn) => turn.notes), ...noted]);
  const notes = [...new Set(view.notes.filter((note) => !given.has(note)))];
  const started = performance.now();
  const tools = view.tools.map((name) => {
    const tool = conversation.registry.get(name)!;
    const params = view.argumentNumbers ? (narrowNestedNumbers(tool.params, view.argumentNumbers).schema as typeof tool.params) : tool.params;
    return { name, description: tool.description, params: narrowParams(params, domainsOf(view.enums, name)) };
  });
  const answerSchema = config.answerSchema ? narrowAnswerSchema(config.answerSchema, view.answerNumbers, view.answerSubjects ?? null) : null;
  const callNumber = callsIn(conversation.history) + 1;
  const contextSize = config.model.description.contextSize;
  // The default string bound: runAgent's defaultMaxLength, else what the step's room allows (the final's reserve kept unless it is this step).
  const keepsReserve = !state.lowOnContext && !view.forcedFinal;
  const stringLength = (promptTokens: number, reserve: number) =>
    config.defaultMaxLength ?? roomStringLength(stringRoom(contextSize, promptTokens, config.maxTokensPerStep, keepsReserve ? reserve : 0));
  const grammarFor = (caps: { thought: number; answer: number }, callsShown: number, defaultMaxLength: number) => {
    const options: StepSchemaOptions<readonly ToolSchemaSpec[], boolean> = {
      tools,
      final: view.final,
      thought: config.profile.thought,
      answerNumbers: view.answerNumbers,
      answerSchema,
      thoughtMaxLength: caps.thought,
      answerMaxLength: caps.answer,
    };
    const parts = { ...stepParts(options), callNumber, callsShown };
    return { parts, gbnf: config.codec.grammar(parts, { defaultMaxLength, defaultMaxItems: config.defaultMaxItems, freeValueDepth: config.freeValueDepth }) };
  };
  const first = renderShownPrompt(question, { notes });
  const renderMs = performance.now() - started;
  const fullCaps = { thought: config.thoughtMaxLength, answer: config.answerMaxLength };
  let caps = fullCaps;
  // The shortest step does not depend on the string bound, so the first grammar's bound assumes the usual reserve.
  const firstLength = stringLength(first.tokens.length, Math.min(config.maxTokensPerStep, config.stepReserve));
  let step = grammarFor(caps, first.callsShown, firstLength);
  let grammarMs = performance.now() - started - renderMs;
  const shortestStep = shortestStepTokens(config.model, first.llamaText, step.gbnf);
  const reserve = stepReserve(shortestStep, config.maxTokensPerStep, config.stepReserve);
  const { prompt, drop } = fittedPrompt(question, notes, first, reserve);
  if (state.lowOnContext && contextSize !== null) {
    const room = textCaps(contextSize, prompt.tokens.length, shortestStep, fullCaps);
    if (room.thought < caps.thought || room.answer < caps.answer) caps = room;
  }
  const length = stringLength(prompt.tokens.length, reserve);
  // Smaller caps, a prompt that left out exchanges holding calls (a format that opens its call list once opens this call as
  // the first it shows), or a room that gives the strings another bound: the grammar again.
  if (caps !== fullCaps || prompt.callsShown !== first.callsShown || length !== firstLength) {
    const again = performance.now();
    step = grammarFor(caps, prompt.callsShown, length);
    grammarMs += performance.now() - again;
  }
  const { parts, gbnf } = step;
  return {
    view, decisions, parts, gbnf, prompt: prompt.tokens, rendered: { text: prompt.text, appended: prompt.appended }, notes, shortestStep, reserve, keep: state.lowOnContext || view.forcedFinal ? 0 : reserve, drop,
    ms: { grammar: grammarMs, render: performance.now() - started - grammarMs },
  };
}
