import type { LlamaText } from "node-llama-cpp";
import type { HistoryItem } from "../../base/chat-history.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { stepStart } from "../../base/step-start.js";
import { CALL_NOTATIONS, NOTATIONS, writeValue, type NotationName } from "../../base/value-notation.js";
import { documentedFunctions } from "../history/documented-functions.js";
import { appendItems, callItem, initialHistory } from "../history/history-items.js";
import { commonPrefix } from "../../base/shared-text.js";
import { sliceLlamaText } from "../history/llama-text-slice.js";
import { renderContext } from "../history/render-history.js";
import { writablePrefixLength, writtenWith, type FrameModel } from "./frame-text.js";

/**
 * How a model family's chat wrapper writes one call in an assistant turn,
 * read off the wrapper itself: `thought + afterThought + NAME + beforeArgs +
 * ARGS + after` (or `withoutThought + NAME + …` in a step without one), the
 * arguments in `notation` (JSON, or the template's own: value-notation.ts).
 * A step written in this frame is, byte for byte, what the wrapper renders
 * for that call in the next turn's history.
 */
export interface CallFrame {
  /**
   * Whether the format keeps text beside a call. Where it does not (the
   * template drops it: Hermes-3, Llama 3.x), a step is the call alone: a
   * thought the model wrote would vanish from the next prompt, so the
   * grammar writes none (see docs/formats.md).
   */
  readonly keepsThought: boolean;
  /** Between the generation prompt and the thought. */
  readonly beforeThought: string;
  /** Between the thought and the tool's name. Its first character never occurs in a thought. */
  readonly afterThought: string;
  /** Between the generation prompt and the name, in a step without a thought. */
  readonly withoutThought: string;
  /** Between the name and the arguments. */
  readonly beforeArgs: string;
  /** After the arguments, up to the first token that ends generation (the model's end of turn) or that no generation can write. */
  readonly after: string;
  /** How the arguments are written. */
  readonly notation: NotationName;
  /**
   * The control tokens the frame holds, by their texts (Phi-4's
   * `<|tool_call|>`, Mistral's `[TOOL_CALLS]`): the template writes them as
   * single tokens, so a step writes them as tokens too (see FrameTokens).
   * Empty where the frame is plain text.
   */
  readonly controlTokens: readonly string[];
  /**
   * Where the frame numbers its call (Mistral Small's `[CALL_ID]000000001`,
   * Mistral Nemo's `"id": "000000001"`): the digits at `at` in `beforeArgs`
   * or `after`, `width` wide, zero-padded. The texts above hold call 1's
   * number; frameForCall writes another's. Null where every call is framed alike.
   */
  readonly callNumber: CallNumberSlot | null;
  /** How the calls after the conversation's first are opened, where otherwise than the first (DeepSeek-R1's); null where every call opens alike. */
  readonly later: LaterCalls | null;
  /** Whether the format lists the tools it is given; where not (DeepSeek-R1's template renders calls but no tools), the native codec lists them in the system text. */
  readonly documentsTools: boolean;
}

/**
 * A template that opens its call list once per conversation (DeepSeek-R1's
 * sets the flag that writes `<｜Assistant｜><｜tool▁calls▁begin｜>` on the
 * first call and never clears it): every later call opens with `opening`,
 * and the prompt before one ends with text its rendering does not show,
 * `<｜tool▁outputs▁end｜>` after a result and the generation prompt's
 * `<｜Assistant｜>` after a user message. Those ends are left out of the
 * prompt (StepCodec.droppedPromptEnd), so the step follows what the next
 * prompt shows before it. Only for a frame without a thought.
 */
export interface LaterCalls {
  readonly opening: string;
  readonly dropped: { readonly afterResult: string; readonly afterUser: string };
}

export interface CallNumberSlot {
  readonly field: "beforeArgs" | "after";
  readonly at: number;
  readonly width: number;
}

/**
 * The frame of the conversation's `number`th call (from 1), after `shown`
 * calls in the prompt: the same frame where calls are neither numbered nor
 * opened otherwise after the first.
 */
export function frameForCall(frame: CallFrame, number: number, shown = number - 1): CallFrame {
  const opened = frame.later && shown > 0 ? { ...frame, withoutThought: frame.later.opening } : frame;
  const slot = frame.callNumber;
  if (!slot || number === 1) return opened;
  // Past the width's largest number the digits run wider, as the template's ids would.
  const digits = String(number).padStart(slot.width, "0");
  const text = frame[slot.field];
  return { ...opened, [slot.field]: `${text.slice(0, slot.at)}${digits}${text.slice(slot.at + slot.width)}` };
}

export type FrameReading = { ok: true; frame: CallFrame } | { ok: false; reason: string };

const EXAMPLE = {
  task: "Task.",
  thought: "Probe thought.",
  name: "ProbeTool",
  args: { alpha: "x y", beta: [1, 2] },
  result: { ok: true },
  tools: [{ name: "ProbeTool", description: "A probe.", params: { type: "object", properties: { alpha: { type: "string" }, beta: { type: "array", items: { type: "number" } } } } }],
} as const;

/** The history of the example task with `calls` call steps in a row (joined into one response, as the native codec joins them). */
function exampleHistory(thought: string | undefined, calls: number) {
  const items = initialHistory("System.", EXAMPLE.task);
  appendItems(items, Array.from({ length: calls }, () => callItem(thought, EXAMPLE.name, EXAMPLE.args, EXAMPLE.result)), { joinModelTurns: true });
  return items;
}

/** The text an assistant turn adds after the generation prompt when it holds one call, with the rendered context. */
function renderedStep(model: FrameModel, thought: string | undefined): { context: LlamaText; start: number; step: string; documentsTools: boolean } | string {
  const functions = documentedFunctions(EXAMPLE.tools as never);
  const before = renderContext(model.chatRenderer, exampleHistory(thought, 0), functions).toString();
  const context = renderContext(model.chatRenderer, exampleHistory(thought, 1), functions, { continueAfterCall: true });
  const after = context.toString();
  const start = stepStart(before, after, EXAMPLE.task);
  if (start === null) return "the wrapper renders the generation prompt differently once a call follows it";
  return { context, start, step: after.slice(start), documentsTools: before.includes(EXAMPLE.tools[0].description) };
}

/** Whether two calls in a row are rendered as `first` and then `second` (the same text, but where the template numbers its calls). */
function rendersTwice(model: FrameModel, thought: string | undefined, first: string, second: string, start: number): boolean {
  const twice = renderContext(model.chatRenderer, exampleHistory(thought, 2), documentedFunctions(EXAMPLE.tools as never), { continueAfterCall: true }).toString();
  const at = twice.indexOf(first, start);
  return at >= 0 && twice.indexOf(second, at + first.length) >= 0;
}

/**
 * Where a call written as `written` (the frame's texts at `fields` offsets
 * in it) carries its number: the first run of digits reading 1 in the name's
 * or the arguments' surroundings for which two calls in a row render as
 * call 1 and then call 2 (the ids narrowgauge gives a template that wants
 * them, zero-padded). Null where no such digits are found.
 */
function callNumberSlot(written: string, fields: Record<CallNumberSlot["field"], { text: string; offset: number }>, rendersAsSecond: (second: string) => boolean): CallNumberSlot | null {
  for (const field of ["beforeArgs", "after"] as const) {
    const { text, offset } = fields[field];
    for (const match of text.matchAll(/\d+/g)) {
      if (Number(match[0]) !== 1) continue;
      const width = match[0].length;
      const at = offset + match.index;
      const second = `${written.slice(0, at)}${"2".padStart(width, "0")}${written.slice(at + width)}`;
      if (rendersAsSecond(second)) return { field, at: match.index, width };
    }
  }
  return null;
}

/**
 * Reads the call frame off a model's chat wrapper by rendering an example call
 * (with a thought and without, one call and two in a row), or says why the
 * wrapper has none narrowgauge can write: the thought is not rendered as
 * text before the call (nor after it, where the frame keeps none), the
 * arguments are in no notation narrowgauge knows, a second call renders
 * otherwise than the first and neither a number (CallNumberSlot) nor a
 * later opening (LaterCalls) explains it, or part of the frame is a
 * special token the sampler cannot write.
 */
export function readCallFrame(model: FrameModel): FrameReading {
  let withThought: ReturnType<typeof renderedStep>;
  let without: ReturnType<typeof renderedStep>;
  try {
    withThought = renderedStep(model, EXAMPLE.thought);
    without = renderedStep(model, undefined);
  } catch (error) {
    // A chat template that refuses the example conversation (a ChatTemplateError) has no frame to read.
    if (error instanceof NarrowgaugeError) return { ok: false, reason: `the chat format cannot render a call: ${error.message}` };
    throw error;
  }
  if (typeof withThought === "string") return { ok: false, reason: withThought };
  if (typeof without === "string") return { ok: false, reason: without };
  const thoughtAt = withThought.step.indexOf(EXAMPLE.thought);
  // A template that writes the text beside a call after it (DeepSeek-R1, as an assistant turn of its own) keeps no thought before the call.
  const namedAt = withThought.step.indexOf(EXAMPLE.name);
  const thoughtAfterCall = thoughtAt >= 0 && namedAt >= 0 && namedAt < thoughtAt;
  // A template that drops the text beside a call (Hermes-3, Llama 3.x) renders the step alike with a thought and without: its frame has no thought.
  const keepsThought = thoughtAt >= 0 && !thoughtAfterCall;
  if (!keepsThought && !thoughtAfterCall && withThought.step !== without.step) return { ok: false, reason: "the thought is not rendered as text before the call" };
  const { step, context, start } = keepsThought ? withThought : without;
  const thoughtEnd = keepsThought ? thoughtAt + EXAMPLE.thought.length : 0;
  const nameAt = step.indexOf(EXAMPLE.name, thoughtEnd);
  if (nameAt < 0) return { ok: false, reason: "the call's name is not rendered after the thought" };
  const afterThought = step.slice(thoughtEnd, nameAt);
  if (keepsThought && (afterThought === "" || EXAMPLE.thought.includes(afterThought[0]!))) return { ok: false, reason: "nothing the thought cannot contain separates it from the call" };
  const nameEnd = nameAt + EXAMPLE.name.length;
  const notations = CALL_NOTATIONS.map((notation) => ({ notation, text: writeValue(EXAMPLE.args, NOTATIONS[notation]) })).map((candidate) => ({ ...candidate, at: step.indexOf(candidate.text, nameEnd) }));
  const found = notations.filter(({ at }) => at >= 0).sort((a, b) => a.at - b.at)[0];
  if (!found) return { ok: false, reason: "the arguments are written in no notation narrowgauge knows (JSON, Gemma's, Python's keyword arguments)" };
  const argsEnd = found.at + found.text.length;
  const suffixText = model.chatRenderer.call.suffix;
  if (!step.startsWith(suffixText, argsEnd)) return { ok: false, reason: "the call's suffix does not follow its arguments" };
  const withoutNameAt = without.step.indexOf(EXAMPLE.name);
  if (withoutNameAt < 0 || !without.step.startsWith(step.slice(nameAt, argsEnd), withoutNameAt)) return { ok: false, reason: "a call without a thought is rendered in another frame" };

  const part = (from: number, to: number) => sliceLlamaText(context, start + from, start + to);
  const parts = keepsThought
    ? ([["the text before the thought", 0, thoughtAt], ["the call's opening", thoughtEnd, nameAt], ["the text between name and arguments", nameEnd, found.at]] as const)
    : ([["the text between name and arguments", nameEnd, found.at]] as const);
  const controlTokens = new Set<string>();
  const write = (text: LlamaText) => {
    const controls = writtenWith(model, text);
    controls?.forEach((control) => controlTokens.add(control));
    return controls !== null;
  };
  for (const [what, from, to] of parts) {
    if (!write(part(from, to))) return { ok: false, reason: `${what} holds a special token the sampler cannot write` };
  }
  if (!write(sliceLlamaText(without.context, without.start, without.start + withoutNameAt))) return { ok: false, reason: "the call's opening holds a special token the sampler cannot write" };
  // A notation's quotes may be special tokens (Gemma's <|"|>): the step writes them as tokens too.
  if (!write(part(found.at, argsEnd))) return { ok: false, reason: "the arguments hold a special token the sampler cannot write" };
  const after = suffixText.slice(0, writablePrefixLength(model, part(argsEnd, argsEnd + suffixText.length)));
  const written = step.slice(0, argsEnd + after.length);
  if (thoughtAfterCall && !withThought.step.startsWith(written)) return { ok: false, reason: "a call with a thought after it is rendered in another frame" };
  const thought = keepsThought ? EXAMPLE.thought : undefined;
  let callNumber: CallNumberSlot | null = null;
  let later: LaterCalls | null = null;
  if (!rendersTwice(model, thought, written, written, start)) {
    const fields = { beforeArgs: { text: step.slice(nameEnd, found.at), offset: nameEnd }, after: { text: after, offset: argsEnd } };
    callNumber = callNumberSlot(written, fields, (second) => rendersTwice(model, thought, written, second, start));
    later = callNumber || keepsThought ? null : readLaterCalls(model, written.slice(nameAt), write);
    if (!callNumber && !later) return { ok: false, reason: "a second call in a row is rendered in another frame" };
  }
  write(part(argsEnd, argsEnd + after.length));
  return {
    ok: true,
    frame: {
      keepsThought,
      beforeThought: keepsThought ? step.slice(0, thoughtAt) : "",
      afterThought: keepsThought ? afterThought : "",
      withoutThought: without.step.slice(0, withoutNameAt),
      beforeArgs: step.slice(nameEnd, found.at),
      after,
      notation: found.notation,
      controlTokens: [...controlTokens],
      callNumber,
      later,
      documentsTools: without.documentsTools,
    },
  };
}

/**
 * How calls after the conversation's first open (LaterCalls), where a
 * second call in a row renders otherwise than the first: read off the
 * example rendered with one call, two and three, and with a user message
 * between two. `call` is a call's text from its name on. Null where the
 * later calls do not all open alike, or where the prompt before one ends
 * otherwise than with text the call's rendering leaves out.
 */
function readLaterCalls(model: FrameModel, call: string, write: (text: LlamaText) => boolean): LaterCalls | null {
  const functions = documentedFunctions(EXAMPLE.tools as never);
  const render = (items: HistoryItem[], continueAfterCall: boolean) => renderContext(model.chatRenderer, items, functions, { continueAfterCall });
  const result = JSON.stringify(EXAMPLE.result);
  const note = "Probe note.";
  const noted = (calls: number) => {
    const items = exampleHistory(undefined, 1);
    items.push({ type: "user", text: note });
    if (calls > 0) items.push(callItem(undefined, EXAMPLE.name, EXAMPLE.args, EXAMPLE.result));
    return items;
  };
  try {
    const rendered = [1, 2, 3].map((calls) => render(exampleHistory(undefined, calls), true));
    const [one, twice, thrice] = rendered.map((text) => text.toString()) as [string, string, string];
    // Where a prompt after a result stops being the one with a call more: past the result, or the result's text is not kept.
    const afterResult = (shorter: string, longer: string) => {
      const at = commonPrefix(shorter, longer);
      return at >= shorter.lastIndexOf(result) + result.length ? at : -1;
    };
    const afterResultAt = afterResult(one, twice);
    const callAt = afterResultAt < 0 ? -1 : twice.indexOf(call, afterResultAt);
    // The later call follows what is kept, opening with nothing of a result's; a third opens as the second.
    if (callAt < 0 || twice.slice(afterResultAt, callAt).includes(result)) return null;
    const opening = twice.slice(afterResultAt, callAt);
    const thirdAt = afterResult(twice, thrice);
    if (thirdAt < 0 || !thrice.startsWith(opening + call, thirdAt)) return null;
    if (!write(sliceLlamaText(rendered[1]!, afterResultAt, callAt))) return null;
    // After a user message the later call drops what the generation prompt opened (DeepSeek-R1's `<｜Assistant｜>`).
    const [asked, answered] = [render(noted(0), false).toString(), render(noted(1), true).toString()];
    const afterUserAt = commonPrefix(asked, answered);
    if (afterUserAt < asked.lastIndexOf(note) + note.length || !answered.startsWith(opening + call, afterUserAt)) return null;
    return { opening, dropped: { afterResult: one.slice(afterResultAt), afterUser: asked.slice(afterUserAt) } };
  } catch (error) {
    if (error instanceof NarrowgaugeError) return null;
    throw error;
  }
}
