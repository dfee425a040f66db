import { NATIVE_CALL_ONLY_SYSTEM_PROMPT, NATIVE_SYSTEM_PROMPT } from "../../prompts/model-text.js";
import { STEP_DEFAULTS, type StepParts } from "../../schemas/step-schema.js";
import { documentedFunctions } from "../history/documented-functions.js";
import { callItem } from "../history/history-items.js";
import { frameForCall, type CallFrame } from "../format/call-frame.js";
import { piecesDecode, piecesEncode, piecesEnd, piecesGrammar, stepPieces } from "./step-pieces.js";
import { toolSection } from "./tool-section.js";
import type { StepCodec } from "./step-codec.js";

/** The thought's longest text, or 0 when the step has none. */
function thoughtLength(parts: StepParts, frame: CallFrame): number {
  if (!parts.thought || !frame.keepsThought) return 0;
  return (parts.thought as { maxLength?: number }).maxLength ?? STEP_DEFAULTS.thoughtMaxLength;
}

/**
 * A step in the model family's own call syntax, as its chat wrapper renders
 * a call (`frame`): the thought as the assistant's text, then one call; a
 * FinalAnswer is a call as well, so the grammar offers and withholds it like
 * any tool, and the answer gate reads it from its `answer` argument. What the
 * model writes is what the next turn's history shows. Where the frame
 * numbers its calls, each step is framed as the conversation's next call
 * (StepParts.callNumber): the grammar writes the number, as the template
 * will render it.
 */
export function nativeCallCodec(base: CallFrame): StepCodec {
  /** The pieces of the step these parts write, with the thought where they bound one (the grammar's and the end's), or always (reading and writing try it). */
  const piecesOf = (parts: StepParts, thought = thoughtLength(parts, base) > 0) => stepPieces(frameForCall(base, parts.callNumber ?? 1, parts.callsShown), thought);
  return Object.freeze<StepCodec>({
    name: "native",
    syntax: JSON.stringify(base.keepsThought ? `${base.beforeThought}THOUGHT${base.afterThought}NAME${base.beforeArgs}{ARGS}${base.after}` : `${base.withoutThought}NAME${base.beforeArgs}{ARGS}${base.after}`),
    verbatim: true,
    frameTokens: base.controlTokens,
    notesInResults: true,
    defaultSystem: base.keepsThought ? NATIVE_SYSTEM_PROMPT : NATIVE_CALL_ONLY_SYSTEM_PROMPT,
    // A format that lists no tools (DeepSeek-R1's template) gets them in the system text, as the json codec lists them.
    prelude: (system, tools, _thought, answerSchema = null) => ({
      system: base.documentsTools ? system : [system, "", ...toolSection(tools, answerSchema)].join("\n"),
      functions: documentedFunctions(tools, { answerRequired: true, answerSchema }),
    }),
    // The four views of a step, each a walk over the pieces its frame lays out (step-pieces.ts).
    grammar: (parts, bounds) => piecesGrammar(piecesOf(parts), parts, thoughtLength(parts, base), bounds),
    end: (parts) => piecesEnd(piecesOf(parts)),
    decode: (text, parts) => piecesDecode(piecesOf(parts, true), text, parts),
    encode: (step, callNumber = 1, callsShown = callNumber - 1) => piecesEncode(stepPieces(frameForCall(base, callNumber, callsShown), true), step),
    droppedPromptEnd: (after, callsShown) => (base.later && callsShown > 0 ? base.later.dropped[after === "result" ? "afterResult" : "afterUser"] : ""),
    callItems: (_raw, step, call, callNumber = 1) => [callItem(base.keepsThought ? step.thought : undefined, call.name, call.args, call.result, base.callNumber ? callNumber : undefined)],
  });
}
