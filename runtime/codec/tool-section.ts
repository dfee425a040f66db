import { FINAL_ANSWER_DESCRIPTION, JSON_STEP_TOOLS } from "../../prompts/model-text.js";
import type { StepCodec } from "./step-codec.js";

/**
 * The tools as narrowgauge documents them in the system text, where the
 * format documents none itself (the json codec's formats, and a template
 * that renders calls but lists no tools: DeepSeek-R1's): each tool's name,
 * description and parameters as JSON Schema, then FinalAnswer (with the
 * answer's schema where runAgent has one).
 */
export function toolSection(tools: Parameters<StepCodec["prelude"]>[1], answerSchema: object | null = null): string[] {
  const answer = answerSchema ? JSON_STEP_TOOLS.structuredAnswer(FINAL_ANSWER_DESCRIPTION, JSON.stringify(answerSchema)) : JSON_STEP_TOOLS.answer(FINAL_ANSWER_DESCRIPTION);
  return [JSON_STEP_TOOLS.heading, ...tools.map((tool) => JSON_STEP_TOOLS.tool(tool.name, tool.description, JSON.stringify(tool.params))), answer];
}
