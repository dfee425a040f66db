import type { HistoryItem } from "../../base/chat-history.js";
import { stepBudget } from "../engine/context-budget.js";
import type { ModelPort, ModelSession } from "../engine/model-port.js";
import { generateValue, valueGrammar, type GeneratedValue, type ValueRequest } from "../engine/value-generation.js";
import { renderContext } from "../history/render-history.js";
import { shortestStepTokens } from "../history/shortest-step.js";

/** A value sampled after a conversation: the prompt it was sampled from, and how long rendering it took. */
export interface ValueInContext<Value> extends GeneratedValue<Value> {
  prompt: readonly number[];
  renderMs: number;
}

/**
 * A value sampled under its schema's grammar after a conversation rendered
 * in the model's own chat format (a guard's judgement, a JSON reply): at
 * most `maxTokens`, fewer where the context holds fewer after the prompt
 * (stepBudget; a prompt that leaves no room for the shortest value is a
 * ContextOverflowError). Sampled in `session`, or in a session of its own.
 */
export async function sampleInContext<Value = unknown>(
  model: ModelPort,
  history: readonly HistoryItem[],
  request: Omit<ValueRequest, "prompt" | "grammarOptions">,
  session?: Pick<ModelSession, "generate">,
): Promise<ValueInContext<Value>> {
  const started = performance.now();
  const rendered = renderContext(model.chatRenderer, history);
  const prompt = model.tokenize(rendered);
  const gbnf = valueGrammar(request);
  const renderMs = performance.now() - started;
  const maxTokens = stepBudget(prompt.length, request.maxTokens, model.description.contextSize, shortestStepTokens(model, rendered, gbnf));
  const value = await generateValue<Value>(session ?? model, { ...request, prompt, maxTokens }, gbnf);
  return { ...value, prompt, renderMs };
}
