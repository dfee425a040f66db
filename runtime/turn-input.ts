import type { ChatHistoryItem, ChatModelFunctions } from "node-llama-cpp";
import { decideView } from "../guards/decide-view.js";
import { domainsOf } from "../guards/enum-domains.js";
import type { GuardProfile } from "../guards/profiles.js";
import type { GuardDecision, RunState, View } from "../guards/run-state.js";
import { cachedGbnf } from "../schemas/grammar-cache.js";
import { narrowParams } from "../schemas/narrow-params.js";
import { buildStepSchema, type StepSchema, type ToolSchemaSpec } from "../schemas/step-schema.js";
import type { ModelPort } from "./model-port.js";
import { digestHistory } from "./digest-history.js";
import { feedbackItem, renderHistory } from "./native-history.js";
import type { ToolRegistry } from "./tool-registry.js";

/** The history as the model is shown it: native, or architecture A's digest. */
export function shownHistory(context: Pick<TurnInputContext, "history" | "historyMode">): ChatHistoryItem[] {
  return context.historyMode === "digest" ? digestHistory(context.history) : context.history;
}

export interface TurnInput {
  view: View;
  decisions: GuardDecision[];
  schema: StepSchema<readonly ToolSchemaSpec[], boolean>;
  gbnf: string;
  prompt: readonly number[];
  /** Milliseconds building the schema and grammar, and rendering the prompt. */
  ms: { grammar: number; render: number };
}

export interface TurnInputContext {
  model: ModelPort;
  registry: ToolRegistry;
  functions: ChatModelFunctions;
  history: ChatHistoryItem[];
  /** Notes already appended: each is appended once per run. */
  notesGiven: Set<string>;
  profile: GuardProfile;
  /** "native" (SPEC S2) or "digest" (architecture A: rebuilt plain text each turn). */
  historyMode: "native" | "digest";
  stepOptions: { thoughtMaxLength?: number; answerMaxLength?: number };
}

/**
 * Everything a turn samples from: the guards' view (DESIGN: state → guards →
 * view), the step schema built from it with narrowed domains, its grammar,
 * and the native prompt after appending any new guard notes. Guards change
 * the grammar and append; they never touch earlier prompt text.
 */
export function prepareTurnInput(context: TurnInputContext, state: RunState): TurnInput {
  const { view, decisions } = decideView(state, context.profile);
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
    thought: context.profile.thought,
    answerNumbers: view.answerNumbers,
    ...context.stepOptions,
  });
  const gbnf = cachedGbnf(schema);
  const grammarMs = performance.now() - started;
  const prompt = renderHistory(context.model, shownHistory(context), context.functions);
  return { view, decisions, schema, gbnf, prompt, ms: { grammar: grammarMs, render: performance.now() - started - grammarMs } };
}
