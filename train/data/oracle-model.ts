import { FINAL_ANSWER, type LlamaModelPort, type ModelPort, type PortGeneration } from "../../index.js";
import type { OraclePlan } from "../tasks/task-kind.js";

/** One generation the runtime asked for: the exact prompt tokens it evaluated, and the oracle's answer as tokens. */
export interface Generation {
  /** "step", or the kind of question a guard asked ("freshness", "verdict"). */
  kind: string;
  prompt: number[];
  completion: number[];
  text: string;
}

export interface OracleRun {
  plan: OraclePlan;
  /** Tool results so far, in order (the data generator's tools append to it). */
  results: unknown[];
  generations: Generation[];
  /** Set when the runtime did not offer what the plan wanted (a hidden tool, no FinalAnswer yet): the run is dropped. */
  offPlan: string | null;
}

/**
 * A model port that answers as an oracle instead of sampling: prompts are
 * rendered and tokenized by the runtime with the target model's own chat
 * wrapper and vocabulary (so a training example is exactly what inference
 * evaluates), and each step is the plan's next move, written in the shape
 * the turn's grammar asks for (with or without a thought).
 */
export function oracleModel(vocabulary: LlamaModelPort, run: OracleRun): ModelPort {
  const tokenize = (text: string) => [...vocabulary.opened.model.tokenize(text, false)] as number[];
  const generate = async (request: Parameters<ModelPort["generate"]>[0]): Promise<PortGeneration> => {
    let text: string;
    const purpose = request.purpose;
    const kind = purpose?.kind === "judgement" ? purpose.judgement : "step";
    if (kind === "freshness") text = JSON.stringify({ needs_current_information: true });
    else if (kind === "verdict") text = JSON.stringify({ verdict: "answered", query: "" });
    else {
      const step = run.plan(run.results);
      const call = "tool" in step ? { tool: step.tool, args: step.args } : { tool: FINAL_ANSWER, answer: step.answer };
      const visible = purpose?.kind === "step" ? purpose.visible : { tools: [], final: false };
      const offered = "tool" in step ? visible.tools.includes(step.tool) : visible.final;
      if (!offered) run.offPlan ??= `turn ${purpose?.turn ?? 0}: ${call.tool} was not offered`;
      const withThought = request.gbnf.includes('{\\"thought\\":');
      text = JSON.stringify(withThought ? { thought: step.thought, call } : { call });
    }
    const completion = tokenize(text);
    run.generations.push({ kind, prompt: [...request.prompt], completion, text });
    request.onText?.(text);
    return { text, stopReason: "grammar-complete", generatedTokens: completion.length, prompt: { tokens: request.prompt.length, evaluated: request.prompt.length }, ms: { prompt: 0, sampling: 0 } };
  };
  return {
    description: { ...vocabulary.description, name: "oracle", builtIn: false },
    chatRenderer: vocabulary.chatRenderer,
    tokenize: vocabulary.tokenize,
    detokenizeForSpy: vocabulary.detokenizeForSpy,
    generate,
    openSession: async () => ({ generate, close: () => {} }),
  };
}
