import type { ChatHistoryItem } from "node-llama-cpp";
import { decideView } from "../../guards/decide-view.js";
import { domainsOf } from "../../guards/facts/enum-domains.js";
import type { GuardDecision, View } from "../../guards/guard.js";
import type { RunState } from "../../guards/run-state.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { narrowParams } from "../../schemas/narrow-params.js";
import { buildStepSchema, type StepSchema, type ToolSchemaSpec } from "../../schemas/step-schema.js";
import { digestHistory } from "../history/digest-history.js";
import { feedbackItem } from "../history/history-items.js";
import { renderHistory } from "../history/render-history.js";
import type { RunContext } from "./run-context.js";

export interface TurnInput {
  view: View;
  decisions: GuardDecision[];
  schema: StepSchema<readonly ToolSchemaSpec[], boolean>;
  gbnf: string;
  prompt: readonly number[];
  /** Milliseconds building the schema and grammar, and rendering the prompt. */
  ms: { grammar: number; render: number };
}

/** The history as the model is shown it: native, or architecture A's digest. */
export function shownHistory(context: Pick<RunContext, "history" | "config">): ChatHistoryItem[] {
  return context.config.history === "digest" ? digestHistory(context.history) : context.history;
}

/**
 * Everything a turn samples from: the guards' view (state → guards → view),
 * the step schema built from it with narrowed domains, its grammar, and the
 * native prompt after appending any new guard notes. Guards change the
 * grammar and append; they never touch earlier prompt text.
 */
export function prepareTurnInput(context: RunContext, state: RunState): TurnInput {
  const { config } = context;
  const { view, decisions } = decideView(state, config.guards, config.profile);
  for (const note of view.notes) {
    if (context.notesGiven.has(note)) continue;
    context.notesGiven.add(note);
    context.history.push(feedbackItem(note));
  }
  const started = performance.now();
  const tools = view.tools.map((name) => {
    const tool = context.registry.get(name)!;
    return { name, description: tool.description, params: narrowParams(tool.params, domainsOf(view.enums, name)) };
  });
  const schema = buildStepSchema({
    tools,
    final: view.final,
    thought: config.profile.thought,
    answerNumbers: view.answerNumbers,
    thoughtMaxLength: config.thoughtMaxLength,
    answerMaxLength: config.answerMaxLength,
  });
  const gbnf = cachedGbnf(schema);
  const grammarMs = performance.now() - started;
  const prompt = renderHistory(config.model, shownHistory(context), context.functions);
  return { view, decisions, schema, gbnf, prompt, ms: { grammar: grammarMs, render: performance.now() - started - grammarMs } };
}
