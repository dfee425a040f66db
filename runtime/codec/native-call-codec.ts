import { NATIVE_CALL_ONLY_SYSTEM_PROMPT, NATIVE_SYSTEM_PROMPT } from "../../prompts/model-text.js";
import { composeGbnf } from "../../schemas/gbnf-compiler.js";
import { gbnfLiteral } from "../../schemas/gbnf-literal.js";
import { repeat, sequence, textCharClass } from "../../schemas/gbnf-rules.js";
import { readNotation } from "../../schemas/read-notation.js";
import { NOTATIONS, writeValue } from "../../base/value-notation.js";
import { FINAL_ANSWER, STEP_DEFAULTS, type StepParts } from "../../schemas/step-schema.js";
import { chatModelFunctions } from "../history/documented-functions.js";
import { callItem } from "../history/history-items.js";
import { frameForCall, type CallFrame } from "../format/call-frame.js";
import type { StepEnd } from "../engine/decode/step-end.js";
import { toolSection } from "./tool-section.js";
import type { DecodedStep, LogicalStep, StepCodec } from "./step-codec.js";

const literal = (text: string) => (text === "" ? "" : gbnfLiteral(text));

/** The thought's longest text, or 0 when the step has none. */
function thoughtLength(parts: StepParts, frame: CallFrame): number {
  if (!parts.thought || !frame.keepsThought) return 0;
  return (parts.thought as { maxLength?: number }).maxLength ?? STEP_DEFAULTS.thoughtMaxLength;
}

/**
 * The thought as plain text: printable characters and spaces, none of the
 * frame's first character (so the call starts unambiguously), one to
 * `maxLength` characters, starting and ending with a visible one (a template
 * that trims would render it otherwise).
 */
function thoughtRule(rules: Parameters<Parameters<typeof composeGbnf>[1]>[0]["rules"], frame: CallFrame, maxLength: number): string {
  const character = rules.add("thought-char", textCharClass(frame.afterThought[0]!));
  if (maxLength === 1) return character;
  const inner = rules.add("thought-inner", `${character} | " "`);
  return rules.add("thought", sequence(character, `(${sequence(repeat(inner, 0, maxLength - 2), character)})?`));
}

function decodeWith(frame: CallFrame, text: string, parts: StepParts): DecodedStep {
  let thought: string | undefined;
  let rest: string;
  const thoughtEnd = frame.keepsThought && text.startsWith(frame.beforeThought) ? text.indexOf(frame.afterThought[0]!, frame.beforeThought.length) : -1;
  if (thoughtEnd > frame.beforeThought.length && text.startsWith(frame.afterThought, thoughtEnd)) {
    thought = text.slice(frame.beforeThought.length, thoughtEnd);
    rest = text.slice(thoughtEnd + frame.afterThought.length);
  } else if (text.startsWith(frame.withoutThought)) {
    // A step written without a thought: the empty thought, where the step has one (the history renders both alike).
    if (parts.thought) thought = "";
    rest = text.slice(frame.withoutThought.length);
  } else return { ok: false, message: "the text does not open a call" };
  const name = /^[A-Za-z0-9_-]+/.exec(rest)?.[0];
  if (!name || !rest.startsWith(frame.beforeArgs, name.length)) return { ok: false, message: "no tool name where the call names one" };
  if (!rest.endsWith(frame.after)) return { ok: false, message: "the call is not closed" };
  const read = readNotation(rest.slice(name.length + frame.beforeArgs.length, rest.length - frame.after.length), NOTATIONS[frame.notation]);
  if (!read.ok) return read;
  const args = read.value;
  const call = name === FINAL_ANSWER ? { tool: name, answer: (args as { answer?: unknown } | null)?.answer } : { tool: name, args };
  return { ok: true, value: thought === undefined ? { call } : { thought, call } };
}

/**
 * The texts a step's end is found after. With a thought: the call's opening
 * (its first character never occurs in a thought), when a step without one
 * opens the same way; else the arguments' opening alone, or, where text
 * comes before the thought (functionary's `all\n`), the call's opening and
 * the arguments' after that text, the arguments' opening alone without it.
 */
function stepEnd(frame: CallFrame, thought: boolean): StepEnd {
  const nonEmpty = (markers: string[]) => markers.filter((marker) => marker !== "");
  // With nothing between the name and the arguments, the name is passed over before them.
  const named = frame.beforeArgs === "" ? { named: true } : {};
  if (!thought || frame.afterThought === frame.withoutThought) return { before: nonEmpty([thought ? frame.afterThought : frame.withoutThought, frame.beforeArgs]), after: frame.after, ...named };
  if (frame.beforeThought === "") return { before: nonEmpty([frame.beforeArgs]), after: frame.after, ...named };
  return { before: nonEmpty([frame.withoutThought, frame.beforeArgs]), after: frame.after, opening: { prefix: frame.beforeThought, before: nonEmpty([frame.afterThought, frame.beforeArgs]) }, ...named };
}

function encodeWith(frame: CallFrame, step: LogicalStep): string {
  const opening = step.thought && frame.keepsThought ? `${frame.beforeThought}${step.thought}${frame.afterThought}` : frame.withoutThought;
  const args = step.call.tool === FINAL_ANSWER ? { answer: step.call.answer } : step.call.args;
  return `${opening}${step.call.tool}${frame.beforeArgs}${writeValue(args, NOTATIONS[frame.notation])}${frame.after}`;
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
  const frameOf = (parts: StepParts) => frameForCall(base, parts.callNumber ?? 1, parts.callsShown);
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
      functions: chatModelFunctions(tools, { answerRequired: true, answerSchema }),
    }),
    grammar: (_schema, parts, bounds) => {
      const frame = frameOf(parts);
      return composeGbnf({ ...bounds, notation: frame.notation }, ({ rules, compile }) => {
        const branches = parts.branches.map((branch) => {
          const args = branch.field === "answer" ? { type: "object", properties: { answer: branch.schema }, required: ["answer"] } : branch.schema;
          return sequence(gbnfLiteral(`${branch.tool}${frame.beforeArgs}`), compile(args, `${branch.tool}-args`), literal(frame.after));
        });
        const call = branches.length === 1 ? branches[0]! : rules.add("call", branches.map((branch) => `(${branch})`).join(" | "));
        const maxLength = thoughtLength(parts, frame);
        const without = literal(frame.withoutThought);
        if (maxLength === 0) return sequence(without, call);
        // The thought may be empty, as in a JSON step: then the call opens as it does without one.
        const withThought = sequence(literal(frame.beforeThought), thoughtRule(rules, frame, maxLength), literal(frame.afterThought));
        return sequence(`(${withThought} | ${without === "" ? '""' : without})`, call);
      });
    },
    end: (parts) => stepEnd(frameOf(parts), thoughtLength(parts, base) > 0),
    decode: (text, parts) => decodeWith(frameOf(parts), text, parts),
    encode: (step, callNumber = 1, callsShown = callNumber - 1) => encodeWith(frameForCall(base, callNumber, callsShown), step),
    droppedPromptEnd: (after, callsShown) => (base.later && callsShown > 0 ? base.later.dropped[after === "result" ? "afterResult" : "afterUser"] : ""),
    callItems: (_raw, step, call, callNumber = 1) => [callItem(base.keepsThought ? step.thought : undefined, call.name, call.args, call.result, base.callNumber ? callNumber : undefined)],
  });
}
