import { Type, type TSchema } from "@sinclair/typebox";
import { ARCHITECTURE_A } from "../../prompts/model-text.js";
import type { View } from "../../guards/guard.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { FINAL_ANSWER, type StepSchema, type ToolSchemaSpec } from "../../schemas/step-schema.js";
import type { GenerateRequest, ModelSession, PortGeneration } from "../model/model-port.js";

/**
 * Architecture A's sampler (`twoPhase: true`): progressive disclosure in two
 * model calls per turn. First the model picks a tool name (and thinks, when
 * the profile has a thought); then, shown only that tool, it fills the
 * arguments (or the answer). The two outputs are assembled into one step's
 * JSON so the loop parses, validates and checks it exactly as a one-call step.
 */
export async function sampleTwoPhase(
  model: Pick<ModelSession, "generate">,
  request: Omit<GenerateRequest, "gbnf" | "prompt">,
  input: { schema: StepSchema<readonly ToolSchemaSpec[], boolean>; view: View; prompt: readonly number[]; render: (extra: { raw: string; ask: string }) => readonly number[] },
): Promise<PortGeneration> {
  const properties = input.schema.properties as Record<string, TSchema>;
  type Branch = { properties: Record<string, TSchema & { const?: string }> };
  const call = properties.call as unknown as Branch & { anyOf?: Branch[] };
  const branches = call.anyOf ?? [call];
  const names = branches.map((branch) => branch.properties.tool!.const!);
  const pick = Type.Object({
    ...(properties.thought ? { thought: properties.thought } : {}),
    tool: names.length === 1 ? Type.Literal(names[0]!) : Type.Union(names.map((name) => Type.Literal(name))),
  });
  const first = await model.generate({ ...request, prompt: input.prompt, gbnf: cachedGbnf(pick) });
  let chosen: { thought?: string; tool: string };
  try {
    chosen = JSON.parse(first.text);
  } catch {
    return first; // unusable: the loop records it as an invalid step
  }
  const branch = branches[names.indexOf(chosen.tool)];
  if (!branch) return first;
  const [, fill] = Object.entries(branch.properties).find(([key]) => key !== "tool")!;
  const field = chosen.tool === FINAL_ANSWER ? "answer" : "args";
  const ask = chosen.tool === FINAL_ANSWER ? ARCHITECTURE_A.writeAnswer : ARCHITECTURE_A.fillArguments(chosen.tool);
  const second = await model.generate({ ...request, prompt: input.render({ raw: first.text, ask }), gbnf: cachedGbnf(Type.Object({ [field]: fill! })) });
  let filled: Record<string, unknown> | undefined;
  try {
    filled = JSON.parse(second.text);
  } catch {
    filled = undefined;
  }
  const combined = {
    text: filled ? JSON.stringify({ ...(chosen.thought !== undefined ? { thought: chosen.thought } : {}), call: { tool: chosen.tool, ...filled } }) : `${first.text}\n${second.text}`,
    stopReason: second.stopReason,
    generatedTokens: first.generatedTokens + second.generatedTokens,
    prompt: { tokens: first.prompt.tokens, evaluated: first.prompt.evaluated + second.prompt.evaluated },
    ms: { prompt: first.ms.prompt + second.ms.prompt, sampling: first.ms.sampling + second.ms.sampling },
  };
  return combined;
}
