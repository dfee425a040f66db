import type { LlamaText } from "node-llama-cpp";
import type { ModelPort } from "../engine/model-port.js";
import { sliceLlamaText } from "./llama-text-slice.js";

/**
 * What a run's model session has read and written so far, as the history
 * shows it: the last prompt's text, then the step's text where the history
 * shows that step verbatim, and the token ids the model read and sampled for
 * them.
 */
export interface HeldText {
  readonly text: string;
  readonly tokens: readonly number[];
}

export interface NextPrompt {
  readonly tokens: readonly number[];
  /** Tokens after the held ones, when the prompt begins with them; null when it does not (an earlier part was rendered anew). */
  readonly appended: number | null;
  /** The rendered text (toString), which the next turn holds. */
  readonly text: string;
}

const startsWith = (tokens: readonly number[], prefix: readonly number[]) => prefix.length <= tokens.length && prefix.every((token, index) => tokens[index] === token);

/**
 * The prompt for a rendered history. Re-tokenizing text the model sampled
 * need not give back the tokens it sampled (a model may pick any split of
 * the same text), and a different split leaves the KV cache at that point.
 * So with `splice`, when the rendered text begins with the held text, the
 * prompt is the held tokens followed by the rest tokenized on its own; it is
 * used only if it reads back as exactly the text the canonical tokenization
 * reads as. Otherwise the canonical tokenization, as before.
 */
export function nextPrompt(renderer: Pick<ModelPort, "tokenize" | "detokenizeForSpy">, rendered: LlamaText, held: HeldText | undefined, splice: boolean): NextPrompt {
  const canonical = renderer.tokenize(rendered);
  const text = rendered.toString();
  if (splice && held && held.tokens.length > 0 && text.length > held.text.length && text.startsWith(held.text)) {
    const rest = renderer.tokenize(sliceLlamaText(rendered, held.text.length));
    const tokens = [...held.tokens, ...rest];
    if (renderer.detokenizeForSpy(tokens) === renderer.detokenizeForSpy(canonical)) return { tokens, appended: rest.length, text };
  }
  return { tokens: canonical, appended: held && startsWith(canonical, held.tokens) ? canonical.length - held.tokens.length : null, text };
}
