import type { LlamaText } from "node-llama-cpp";
import type { ModelPort } from "../engine/model-port.js";
import { commonPrefix } from "../../base/shared-text.js";
import { sliceLlamaText, sliceLlamaTextEnd } from "./llama-text-slice.js";

/**
 * What a run's model session has read and written so far, as the history
 * shows it: the last prompt's text, then the step's text where the history
 * shows that step verbatim, and the token ids the model read and sampled for
 * them.
 */
export interface HeldText {
  readonly text: string;
  readonly tokens: readonly number[];
  /** Where the sampled step begins (a text offset and a token offset), when the held text ends with one. */
  readonly step?: { readonly text: number; readonly tokens: number };
}

export interface NextPrompt {
  readonly tokens: readonly number[];
  /** Tokens after the held ones, when the prompt begins with them; null when it does not (an earlier part was rendered anew). */
  readonly appended: number | null;
  /** The rendered text (toString), which the next turn holds. */
  readonly text: string;
}

const startsWith = (tokens: readonly number[], prefix: readonly number[]) => prefix.length <= tokens.length && prefix.every((token, index) => tokens[index] === token);

/** Tokens of context a read-back is checked with: what a detokenizer looks back at (a SentencePiece leading space, a partial character). */
const SEAM = 8;

type Renderer = Pick<ModelPort, "tokenize" | "detokenizeForSpy" | "writesControlToken">;

/** How the spy reads a rendered text: its texts as they are, each built-in token (BOS, EOS) as its token reads. */
function readAs(renderer: Renderer, text: LlamaText): string {
  return text.values.map((value) => (typeof value === "string" ? value : value.toJSON().type === "specialToken" ? renderer.detokenizeForSpy(renderer.tokenize(text.mapValues((other) => (other === value ? other : "")))) : value.toString())).join("");
}

/** Whether `tokens`, read after `before`, read as `text` (the seam checked, not what comes before it). */
function readsAs(renderer: Renderer, before: readonly number[], tokens: readonly number[], text: string): boolean {
  const context = before.slice(-SEAM);
  return renderer.detokenizeForSpy([...context, ...tokens]) === renderer.detokenizeForSpy(context) + text;
}

/** Tokens split at their control tokens: the control tokens in order, and the text of each run of plain tokens around them. */
function controlSkeleton(renderer: Renderer, isControl: (token: number) => boolean, tokens: readonly number[]) {
  const controls: number[] = [];
  const texts: string[] = [];
  let from = 0;
  tokens.forEach((token, index) => {
    if (!isControl(token)) return;
    controls.push(token);
    texts.push(renderer.detokenizeForSpy(tokens.slice(from, index)));
    from = index + 1;
  });
  texts.push(renderer.detokenizeForSpy(tokens.slice(from)));
  return { controls, texts };
}

/**
 * Whether the held step's tokens hold the control tokens the rendered
 * history holds there, in the same places. The spy reads a control token
 * and its spelled characters alike, so the text check cannot tell a frame
 * the model wrote as characters (or a frame token forced inside a string)
 * from the template's; tokenizing the step's part of the rendered text can.
 */
function sameControlTokens(renderer: Renderer, rendered: LlamaText, held: HeldText): boolean {
  const isControl = renderer.writesControlToken?.bind(renderer);
  if (!isControl || !held.step) return true;
  const sampled = controlSkeleton(renderer, isControl, held.tokens.slice(held.step.tokens));
  const canonical = controlSkeleton(renderer, isControl, renderer.tokenize(sliceLlamaText(rendered, held.step.text, held.text.length)));
  if (sampled.controls.length === 0 && canonical.controls.length === 0) return true;
  return sampled.controls.join() === canonical.controls.join() && sampled.texts.join("\u0000") === canonical.texts.join("\u0000");
}

/**
 * The prompt for a rendered history. Re-tokenizing text the model sampled
 * need not give back the tokens it sampled (a model may pick any split of
 * the same text), and a different split leaves the KV cache at that point.
 * So with `splice`, when the rendered text begins with the held text, the
 * prompt is the held tokens followed by the rest tokenized on its own, used
 * where the rest reads back as its text after the held tokens (a tokenizer
 * that writes a leading space or a BOS of its own at the start of a text
 * would not) and the held step holds the control tokens the rendered
 * history holds there. Where the rendered text leaves the held text near
 * its end (a template that ends its last message otherwise once a turn
 * follows it: Hermes-3's last tool result), the held tokens before that
 * point are kept the same way, the step among them only whole. Only what is
 * new is tokenized: a turn's cost does not grow with the conversation.
 * Otherwise the whole text is tokenized, as the first prompt is.
 */
export function nextPrompt(renderer: Renderer, rendered: LlamaText, held: HeldText | undefined, splice: boolean): NextPrompt {
  const text = rendered.toString();
  if (splice && held && held.tokens.length > 0 && text.length > held.text.length && text.startsWith(held.text) && sameControlTokens(renderer, rendered, held)) {
    const spliced = splicedAfter(renderer, rendered, text, held.tokens, held.text.length);
    if (spliced) return { tokens: spliced, appended: spliced.length - held.tokens.length, text };
  } else if (splice && held && held.tokens.length > 0) {
    const kept = keptBefore(renderer, held, commonPrefix(text, held.text));
    const spliced = kept && splicedAfter(renderer, rendered, text, kept.tokens, kept.text);
    if (spliced) return { tokens: spliced, appended: null, text };
  }
  const canonical = renderer.tokenize(rendered);
  return { tokens: canonical, appended: held && startsWith(canonical, held.tokens) ? canonical.length - held.tokens.length : null, text };
}

/** `tokens` (reading as the rendered text's first `length` characters) followed by the rest of the text tokenized on its own, where it reads back as its text after them. */
function splicedAfter(renderer: Renderer, rendered: LlamaText, text: string, tokens: readonly number[], length: number): number[] | null {
  const restText = sliceLlamaTextEnd(rendered, text.length - length);
  const rest = renderer.tokenize(restText);
  return readsAs(renderer, tokens, rest, readAs(renderer, restText)) ? tokens.concat(rest) : null;
}

/**
 * The held tokens that read as the held text's first `length` characters or
 * fewer: the last ones dropped (the held step always whole: its control
 * tokens are checked whole) until what they read as covers the rest. Null
 * where the dropped tokens do not read as the held text's end.
 */
function keptBefore(renderer: Renderer, held: HeldText, length: number): { tokens: readonly number[]; text: number } | null {
  const end = held.step ? held.step.tokens : held.tokens.length;
  for (let dropping = 0; ; dropping = Math.max(1, dropping * 2)) {
    const from = Math.max(0, end - dropping);
    const context = renderer.detokenizeForSpy(held.tokens.slice(Math.max(0, from - SEAM), from));
    const both = renderer.detokenizeForSpy(held.tokens.slice(Math.max(0, from - SEAM)));
    // A cut inside a character (a byte-level token of a multi-byte one) reads as U+FFFD on both sides: not a place to cut.
    const whole = both.startsWith(context) && !context.endsWith("\uFFFD") && !both.startsWith("\uFFFD", context.length);
    const dropped = both.slice(context.length);
    if (whole && !held.text.endsWith(dropped)) return null;
    const text = held.text.length - dropped.length;
    if (whole && text <= length) return from > 0 ? { tokens: held.tokens.slice(0, from), text } : null;
    if (from === 0) return null;
  }
}

/**
 * What the session holds after a step the history shows verbatim: the
 * prompt and the step, as text and as the tokens read and sampled; the
 * prompt alone where the sampled tokens do not read back as the step's text
 * after it (then the next prompt is tokenized whole).
 */
export function heldAfterStep(renderer: Renderer, prompt: HeldText, step: { text: string; tokens: readonly number[] }): HeldText {
  if (!readsAs(renderer, prompt.tokens, step.tokens, step.text)) return prompt;
  return { text: prompt.text + step.text, tokens: prompt.tokens.concat(step.tokens), step: { text: prompt.text.length, tokens: prompt.tokens.length } };
}
