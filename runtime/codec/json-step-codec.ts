import { DEFAULT_SYSTEM_PROMPT, JSON_STEP_TOOLS, OBSERVATION } from "../../prompts/model-text.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { stepSchemaOf } from "../../schemas/step-schema.js";
import { documentedFunctions } from "../history/documented-functions.js";
import { callItem, feedbackItem } from "../history/history-items.js";
import { decodeJson } from "../engine/parse-generation.js";
import { JSON_STEP_END } from "../engine/decode/step-end.js";
import type { StepCodec } from "./step-codec.js";
import { toolSection } from "./tool-section.js";

const JSON_SYNTAX = '{"thought":"…","call":{"tool":"…","args":{…}}}';

/** The JSON step as narrowgauge wrote it before codecs: the chat wrapper documents the tools and shows each step in its own function syntax. */
export const JSON_V1_CODEC: StepCodec = Object.freeze<StepCodec>({
  name: "json-v1",
  syntax: `${JSON_SYNTAX}, shown in the history in the chat wrapper's function syntax`,
  verbatim: false,
  frameTokens: [],
  notesInResults: false,
  defaultSystem: DEFAULT_SYSTEM_PROMPT,
  prelude: (system, tools, _thought, answerSchema) => ({ system, functions: documentedFunctions(tools, { answerSchema }) }),
  grammar: (parts, bounds) => cachedGbnf(stepSchemaOf(parts), bounds),
  end: () => JSON_STEP_END,
  decode: (text) => decodeJson(text),
  encode: (step) => JSON.stringify(step),
  droppedPromptEnd: () => "",
  callItems: (_raw, step, call) => [callItem(step.thought, call.name, call.args, call.result)],
});

/** The tool section of the system prompt, for a format whose wrapper has no call syntax of its own: the tools, then the step's shape. */
function documentTools(tools: Parameters<StepCodec["prelude"]>[1], thought: boolean, answerSchema: object | null): string {
  return [...toolSection(tools, answerSchema), JSON_STEP_TOOLS.shape(thought, answerSchema !== null)].join("\n");
}

/** The JSON step as the assistant's own text, shown as written; each result is the next user turn. */
export const JSON_CODEC: StepCodec = Object.freeze<StepCodec>({
  name: "json",
  syntax: JSON_SYNTAX,
  verbatim: true,
  frameTokens: [],
  notesInResults: false,
  defaultSystem: DEFAULT_SYSTEM_PROMPT,
  prelude: (system, tools, thought, answerSchema = null) => ({ system: `${system}\n\n${documentTools(tools, thought, answerSchema)}`, functions: undefined }),
  grammar: (parts, bounds) => cachedGbnf(stepSchemaOf(parts), bounds),
  end: () => JSON_STEP_END,
  decode: (text) => decodeJson(text),
  encode: (step) => JSON.stringify(step),
  droppedPromptEnd: () => "",
  callItems: (raw, _step, call) => [{ type: "model", response: [raw] }, feedbackItem(OBSERVATION(call.name, JSON.stringify(call.result)))],
});
