import { Type } from "@sinclair/typebox";
import { compileGbnf, FINAL_ANSWER, MODEL_TEXT, type HistoryItem, type PortGeneration, type StepRequest, type TurnStrategy } from "../index.js";

const TEXT = MODEL_TEXT.ARCHITECTURE_A;

/**
 * Architecture A's history: the conversation rebuilt each turn as one
 * plain-text digest in the user's message, instead of native calls and
 * results. Measured, never the default: a digest has been seen to move 9B
 * and 14B models out of distribution, where native history kept them on it.
 */
export function digestHistory(history: readonly HistoryItem[]): HistoryItem[] {
  const [system, task, ...rest] = history;
  if (!system || !task || task.type !== "user") return [...history];
  const lines: string[] = [];
  let step = 0;
  for (const item of rest) {
    if (item.type === "user") lines.push(TEXT.note(item.text));
    if (item.type !== "model") continue;
    for (const part of item.response) {
      if (typeof part === "string") lines.push(TEXT.thought(part));
      else if (part.type === "functionCall") lines.push(TEXT.step(++step, part.name, part.params, part.result));
    }
  }
  return [system, { type: "user", text: lines.length === 0 ? task.text : TEXT.digest(task.text, lines) }];
}

/**
 * Architecture A's step: progressive disclosure in two model calls. First the
 * model picks a tool name (and thinks, when the profile has a thought); then,
 * shown only that tool, it fills the arguments (or the answer). The two
 * outputs are assembled into one step, written as the run's codec writes
 * steps, so the loop parses, validates and checks it exactly as a one-call
 * step. Each of the two calls is a JSON value of its own.
 */
export async function sampleTwoPhase(request: StepRequest): Promise<PortGeneration> {
  const { parts, session } = request;
  const purpose = request.generation.purpose;
  const generation = { ...request.generation, end: undefined, purpose: purpose?.kind === "step" ? { ...purpose, encodeStep: JSON.stringify } : purpose };
  const encode = purpose?.kind === "step" ? purpose.encodeStep : JSON.stringify;
  const names = parts.branches.map((branch) => branch.tool);
  const pick = Type.Object({
    ...(parts.thought ? { thought: parts.thought } : {}),
    tool: names.length === 1 ? Type.Literal(names[0]!) : Type.Union(names.map((name) => Type.Literal(name))),
  });
  const first = await session.generate({ ...generation, prompt: request.prompt, gbnf: compileGbnf(pick) });
  let chosen: { thought?: string; tool: string };
  try {
    chosen = JSON.parse(first.text);
  } catch {
    return first; // unusable: the loop records it as an invalid step
  }
  const branch = parts.branches.find((candidate) => candidate.tool === chosen.tool);
  if (!branch) return first;
  const ask = branch.tool === FINAL_ANSWER ? TEXT.writeAnswer : TEXT.fillArguments(branch.tool);
  const prompt = request.render([{ type: "model", response: [first.text] }, { type: "user", text: ask }]);
  const second = await session.generate({ ...generation, prompt, gbnf: compileGbnf(Type.Object({ [branch.field]: branch.schema })) });
  let filled: Record<string, unknown> | undefined;
  try {
    filled = JSON.parse(second.text);
  } catch {
    filled = undefined;
  }
  return {
    text: filled ? encode({ ...(chosen.thought !== undefined ? { thought: chosen.thought } : {}), call: { tool: chosen.tool, ...filled } }) : `${first.text}\n${second.text}`,
    stopReason: second.stopReason,
    generatedTokens: first.generatedTokens + second.generatedTokens,
    decodes: (first.decodes ?? first.generatedTokens) + (second.decodes ?? second.generatedTokens),
    forcedTokens: (first.forcedTokens ?? 0) + (second.forcedTokens ?? 0),
    prompt: { tokens: first.prompt.tokens, evaluated: first.prompt.evaluated + second.prompt.evaluated },
    ms: { prompt: first.ms.prompt + second.ms.prompt, sampling: first.ms.sampling + second.ms.sampling },
  };
}

/** Architecture A: the digest history and the two-phase step, through runAgent's strategy seam. */
export const ARCHITECTURE_A_STRATEGY: TurnStrategy = { showHistory: digestHistory, sampleStep: sampleTwoPhase };
