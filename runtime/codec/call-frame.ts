import type { LlamaText } from "node-llama-cpp";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { stepStart } from "../../base/step-start.js";
import { CALL_NOTATIONS, NOTATIONS, writeValue, type NotationName } from "../../base/value-notation.js";
import { chatModelFunctions } from "../history/documented-functions.js";
import { appendItems, callItem, initialHistory } from "../history/history-items.js";
import { plainLlamaText, plainTextLike, sliceLlamaText } from "../history/llama-text-slice.js";
import { renderContext } from "../history/render-history.js";
import type { ModelPort } from "../engine/model-port.js";

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
}

export interface CallNumberSlot {
  readonly field: "beforeArgs" | "after";
  readonly at: number;
  readonly width: number;
}

/** The frame of the conversation's `number`th call (from 1): the same frame where calls are not numbered. */
export function frameForCall(frame: CallFrame, number: number): CallFrame {
  const slot = frame.callNumber;
  if (!slot || number === 1) return frame;
  // Past the width's largest number the digits run wider, as the template's ids would.
  const digits = String(number).padStart(slot.width, "0");
  const text = frame[slot.field];
  return { ...frame, [slot.field]: `${text.slice(0, slot.at)}${digits}${text.slice(slot.at + slot.width)}` };
}

export type FrameProbe = { ok: true; frame: CallFrame } | { ok: false; reason: string };

const PROBE = {
  task: "Task.",
  thought: "Probe thought.",
  name: "ProbeTool",
  args: { alpha: "x y", beta: [1, 2] },
  result: { ok: true },
  tools: [{ name: "ProbeTool", description: "A probe.", params: { type: "object", properties: { alpha: { type: "string" }, beta: { type: "array", items: { type: "number" } } } } }],
} as const;

type Renderer = Pick<ModelPort, "chatWrapper" | "tokenize" | "detokenizeForSpy" | "writesControlToken">;

const sameTokens = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((token, index) => token === b[index]);

/**
 * The control tokens (by text) a generation writes this text with, as the
 * template's rendering tokenizes it: none for text that tokenizes the same
 * with special tokens recognised as without; those the model port writes
 * (ModelPort.writesControlToken) where the text between them tokenizes as
 * plain text; null where it holds a token no generation writes (one that
 * ends generation, a built-in one, or any where the port writes none).
 */
function writtenWith(renderer: Renderer, text: LlamaText): string[] | null {
  const plain = plainLlamaText(text);
  if (plain === null) return null;
  const tokens = renderer.tokenize(text);
  if (sameTokens(tokens, renderer.tokenize(plain))) return [];
  if (!renderer.writesControlToken) return null;
  const string = text.toString();
  const plainTokens = (part: string) => (part === "" ? [] : renderer.tokenize(plainTextLike(text, part)));
  const expected: number[] = [];
  const controls: string[] = [];
  let from = 0;
  for (const token of tokens) {
    if (!renderer.writesControlToken(token)) continue;
    const piece = renderer.detokenizeForSpy([token]);
    const at = string.indexOf(piece, from);
    if (piece === "" || at < 0) return null;
    expected.push(...plainTokens(string.slice(from, at)), token);
    controls.push(piece);
    from = at + piece.length;
  }
  expected.push(...plainTokens(string.slice(from)));
  return sameTokens(tokens, expected) ? controls : null;
}

/** How much of `text` comes before its first token no generation writes (an end-of-turn token, say). */
function writablePrefixLength(renderer: Renderer, text: LlamaText): number {
  if (writtenWith(renderer, text)) return text.toString().length;
  let length = 0;
  for (const token of renderer.tokenize(text)) {
    const piece = renderer.detokenizeForSpy([token]);
    if (!writtenWith(renderer, sliceLlamaText(text, length, length + piece.length))) break;
    length += piece.length;
  }
  return text.toString().startsWith(renderer.detokenizeForSpy(renderer.tokenize(sliceLlamaText(text, 0, length)))) ? length : 0;
}

/** The history of the probe task with `calls` call steps in a row (joined into one response, as the native codec joins them). */
function probeHistory(thought: string | undefined, calls: number) {
  const items = initialHistory("System.", PROBE.task);
  appendItems(items, Array.from({ length: calls }, () => callItem(thought, PROBE.name, PROBE.args, PROBE.result)), { joinModelTurns: true });
  return items;
}

/** The text an assistant turn adds after the generation prompt when it holds one call, with the rendered context. */
function renderedStep(renderer: Renderer, thought: string | undefined): { context: LlamaText; start: number; step: string } | string {
  const functions = chatModelFunctions(PROBE.tools as never);
  const before = renderContext(renderer.chatWrapper, probeHistory(thought, 0), functions).toString();
  const context = renderContext(renderer.chatWrapper, probeHistory(thought, 1), functions, { continueAfterCall: true });
  const after = context.toString();
  const start = stepStart(before, after, PROBE.task);
  if (start === null) return "the wrapper renders the generation prompt differently once a call follows it";
  return { context, start, step: after.slice(start) };
}

/** Whether two calls in a row are rendered as `first` and then `second` (the same text, but where the template numbers its calls). */
function rendersTwice(renderer: Renderer, thought: string | undefined, first: string, second: string, start: number): boolean {
  const twice = renderContext(renderer.chatWrapper, probeHistory(thought, 2), chatModelFunctions(PROBE.tools as never), { continueAfterCall: true }).toString();
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
 * Reads the call frame off a model's chat wrapper by rendering a probe call
 * (with a thought and without), or says why the wrapper has none narrowgauge
 * can write: the thought is not rendered as text before the call, the
 * arguments are not JSON, or part of the frame is a special token the
 * sampler cannot write (Mistral's [TOOL_CALLS], Harmony's channels).
 */
export function probeCallFrame(renderer: Renderer): FrameProbe {
  let withThought: ReturnType<typeof renderedStep>;
  let without: ReturnType<typeof renderedStep>;
  try {
    withThought = renderedStep(renderer, PROBE.thought);
    without = renderedStep(renderer, undefined);
  } catch (error) {
    // A chat template that refuses the probe conversation (a ChatTemplateError) has no frame to read.
    if (error instanceof NarrowgaugeError) return { ok: false, reason: `the chat format cannot render a call: ${error.message}` };
    throw error;
  }
  if (typeof withThought === "string") return { ok: false, reason: withThought };
  if (typeof without === "string") return { ok: false, reason: without };
  const thoughtAt = withThought.step.indexOf(PROBE.thought);
  // A template that drops the text beside a call (Hermes-3, Llama 3.x) renders the step alike with a thought and without: its frame has no thought.
  const keepsThought = thoughtAt >= 0;
  if (!keepsThought && withThought.step !== without.step) return { ok: false, reason: "the thought is not rendered as text before the call" };
  const { step, context, start } = keepsThought ? withThought : without;
  const thoughtEnd = keepsThought ? thoughtAt + PROBE.thought.length : 0;
  const nameAt = step.indexOf(PROBE.name, thoughtEnd);
  if (nameAt < 0) return { ok: false, reason: "the call's name is not rendered after the thought" };
  const afterThought = step.slice(thoughtEnd, nameAt);
  if (keepsThought && (afterThought === "" || PROBE.thought.includes(afterThought[0]!))) return { ok: false, reason: "nothing the thought cannot contain separates it from the call" };
  const nameEnd = nameAt + PROBE.name.length;
  const notations = CALL_NOTATIONS.map((notation) => ({ notation, text: writeValue(PROBE.args, NOTATIONS[notation]) })).map((candidate) => ({ ...candidate, at: step.indexOf(candidate.text, nameEnd) }));
  const found = notations.filter(({ at }) => at >= 0).sort((a, b) => a.at - b.at)[0];
  if (!found) return { ok: false, reason: "the arguments are written in no notation narrowgauge knows (JSON, Gemma's, Python's keyword arguments)" };
  const argsEnd = found.at + found.text.length;
  const suffix = renderer.chatWrapper.settings.functions.call.suffix;
  const suffixText = typeof suffix === "string" ? suffix : suffix.toString();
  if (!step.startsWith(suffixText, argsEnd)) return { ok: false, reason: "the call's suffix does not follow its arguments" };
  const withoutNameAt = without.step.indexOf(PROBE.name);
  if (withoutNameAt < 0 || !without.step.startsWith(step.slice(nameAt, argsEnd), withoutNameAt)) return { ok: false, reason: "a call without a thought is rendered in another frame" };

  const part = (from: number, to: number) => sliceLlamaText(context, start + from, start + to);
  const parts = keepsThought
    ? ([["the text before the thought", 0, thoughtAt], ["the call's opening", thoughtEnd, nameAt], ["the text between name and arguments", nameEnd, found.at]] as const)
    : ([["the text between name and arguments", nameEnd, found.at]] as const);
  const controlTokens = new Set<string>();
  const write = (text: LlamaText) => {
    const controls = writtenWith(renderer, text);
    controls?.forEach((control) => controlTokens.add(control));
    return controls !== null;
  };
  for (const [what, from, to] of parts) {
    if (!write(part(from, to))) return { ok: false, reason: `${what} holds a special token the sampler cannot write` };
  }
  if (!write(sliceLlamaText(without.context, without.start, without.start + withoutNameAt))) return { ok: false, reason: "the call's opening holds a special token the sampler cannot write" };
  // A notation's quotes may be special tokens (Gemma's <|"|>): the step writes them as tokens too.
  if (!write(part(found.at, argsEnd))) return { ok: false, reason: "the arguments hold a special token the sampler cannot write" };
  const after = suffixText.slice(0, writablePrefixLength(renderer, part(argsEnd, argsEnd + suffixText.length)));
  const written = step.slice(0, argsEnd + after.length);
  const thought = keepsThought ? PROBE.thought : undefined;
  let callNumber: CallNumberSlot | null = null;
  if (!rendersTwice(renderer, thought, written, written, start)) {
    const fields = { beforeArgs: { text: step.slice(nameEnd, found.at), offset: nameEnd }, after: { text: after, offset: argsEnd } };
    callNumber = callNumberSlot(written, fields, (second) => rendersTwice(renderer, thought, written, second, start));
    if (!callNumber) return { ok: false, reason: "a second call in a row is rendered in another frame" };
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
    },
  };
}
