import type { ChatHistoryItem } from "node-llama-cpp";
import { decideView } from "../../guards/decide-view.js";
import { domainsOf } from "../../guards/facts/enum-domains.js";
import type { GuardDecision, View } from "../../guards/guard.js";
import type { RunState } from "../../guards/run-state.js";
import { narrowParams } from "../../schemas/narrow-params.js";
import { buildStepSchema, stepParts, type StepParts, type StepSchema, type StepSchemaOptions, type ToolSchemaSpec } from "../../schemas/step-schema.js";
import { feedbackItem } from "../history/history-items.js";
import { nextPrompt } from "../history/held-prompt.js";
import { renderContext } from "../history/render-history.js";
import type { Question } from "./question.js";

export interface TurnInput {
  view: View;
  decisions: GuardDecision[];
  schema: StepSchema<readonly ToolSchemaSpec[], boolean>;
  parts: StepParts;
  gbnf: string;
  prompt: readonly number[];
  /** The prompt's text as rendered, and how many of its tokens come after what the session held (null: an earlier part was rendered anew). */
  rendered: { text: string; appended: number | null };
  /** Guard notes new this turn: the prompt shows them appended to the conversation (each note once per question). */
  notes: string[];
  /** Milliseconds building the schema and grammar, and rendering the prompt. */
  ms: { grammar: number; render: number };
}

/**
 * The prompt: the conversation (with `appended` items, not yet in it) as the
 * strategy shows it, then `extra` items as they are (a follow-up call's
 * context), rendered and tokenized.
 */
export function renderShown(question: Pick<Question, "config" | "conversation">, appended: readonly ChatHistoryItem[], extra: readonly ChatHistoryItem[] = []): readonly number[] {
  return renderShownPrompt(question, appended, extra).tokens;
}

/**
 * renderShown with the rendered text, and with the session's held tokens
 * kept where the text extends them and the codec shows steps verbatim.
 */
function renderShownPrompt(question: Pick<Question, "config" | "conversation">, appended: readonly ChatHistoryItem[], extra: readonly ChatHistoryItem[] = []) {
  const { config, conversation } = question;
  const rendered = renderContext(config.model.chatWrapper, [...config.strategy.showHistory([...conversation.history, ...appended]), ...extra], conversation.functions, {
    continueAfterCall: config.codec.verbatim,
  });
  return nextPrompt(config.model, rendered, conversation.held, config.codec.verbatim);
}

/**
 * Everything a turn samples from: the guards' view (state → guards → view),
 * the step schema built from it with narrowed domains, its grammar, and the
 * native prompt with the view's new notes appended. Guards change the grammar
 * and append; they never touch earlier prompt text. Pure: nothing is
 * appended to the conversation until the turn runs.
 */
export function prepareTurn(question: Pick<Question, "config" | "conversation">, state: RunState, noted: readonly string[] = []): TurnInput {
  const { config, conversation } = question;
  const { view, decisions } = decideView(state, config.guards, config.profile);
  const given = new Set([...state.turns.flatMap((turn) => turn.notes), ...noted]);
  const notes = [...new Set(view.notes.filter((note) => !given.has(note)))];
  const started = performance.now();
  const tools = view.tools.map((name) => {
    const tool = conversation.registry.get(name)!;
    return { name, description: tool.description, params: narrowParams(tool.params, domainsOf(view.enums, name)) };
  });
  const options: StepSchemaOptions<readonly ToolSchemaSpec[], boolean> = {
    tools,
    final: view.final,
    thought: config.profile.thought,
    answerNumbers: view.answerNumbers,
    thoughtMaxLength: config.thoughtMaxLength,
    answerMaxLength: config.answerMaxLength,
  };
  const schema = buildStepSchema(options);
  const parts = stepParts(options);
  const gbnf = config.codec.grammar(schema, parts);
  const grammarMs = performance.now() - started;
  const prompt = renderShownPrompt(question, notes.map(feedbackItem));
  return {
    view, decisions, schema, parts, gbnf, prompt: prompt.tokens, rendered: { text: prompt.text, appended: prompt.appended }, notes,
    ms: { grammar: grammarMs, render: performance.now() - started - grammarMs },
  };
}
